import { z } from 'zod';

/** A regular expression written as a string in YAML; an invalid one is reported where it stands. */
export const regexSource = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}` });
  }
});

/** An option object of a rule: unknown keys are typos, so they are errors. */
export const ruleOptions = <Shape extends z.ZodRawShape>(shape: Shape) => z.strictObject(shape);

export const noOptions = z.strictObject({});
