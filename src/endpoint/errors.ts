/** An HTTP failure a handler throws and the app turns into a JSON answer: status, a stable code, words. */

/** A problem with one field of the request (`body` for the request as a whole). */
export interface FieldProblem {
  field: string;
  message: string;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldProblem[];
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, options: { fields?: FieldProblem[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.fields = options.fields ?? [];
    this.headers = options.headers ?? {};
  }

  /** A 400 naming each field at fault. */
  static invalid(fields: FieldProblem[]): HttpError {
    return new HttpError(400, 'invalid_request', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
  }

  body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...(this.fields.length > 0 ? { fields: this.fields } : {}) };
  }
}
