import { describe, expect, it } from 'vitest';
import { abortable } from '../../src/util/abortable.ts';

describe('abortable', () => {
  it("gives the promise's value, or its error, when no abort comes first", async () => {
    const controller = new AbortController();
    await expect(abortable(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(abortable(Promise.reject(new Error('app failed')), controller.signal)).rejects.toThrow('app failed');
    await expect(abortable(Promise.resolve('no signal'), undefined)).resolves.toBe('no signal');
  });

  it("rejects with the abort's reason once the signal fires first, as an Error whatever the reason was", async () => {
    const controller = new AbortController();
    const waiting = abortable(new Promise<never>(() => undefined), controller.signal);
    controller.abort('stopped by the host');
    await expect(waiting).rejects.toThrow(new Error('stopped by the host'));
    const already = new AbortController();
    already.abort(new Error('cancelled'));
    expect(() => abortable(Promise.resolve(1), already.signal)).toThrow('cancelled');
  });
});
