/**
 * The words a schema refusal is answered with. A rule that lives in a request schema (so that the
 * OpenAPI document states it and a generated client never breaks it) still deserves the sentence a
 * person can act on, not Ajv's `must be >= 1`. The gateway's validation formatter reads these two
 * annotations from the schema that failed; in the OpenAPI document they are vendor extensions
 * (`x-`), which validators and generators ignore.
 *
 *   amount: Type.Number({ minimum: 1, ...refusal('INVALID_AMOUNT', { minimum: 'Minimum trade amount is $1.00' }) })
 */

/** The JSON Schema keywords a message can be given for; `*` answers any other keyword of that schema. */
export type RefusalKeyword =
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'multipleOf'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'enum'
  | 'format'
  | 'type'
  | '*';

export const ERROR_MESSAGES_KEYWORD = 'x-error-messages';
export const ERROR_CODE_KEYWORD = 'x-error-code';

export interface RefusalAnnotations {
  readonly [ERROR_MESSAGES_KEYWORD]: Readonly<Partial<Record<RefusalKeyword, string>>>;
  readonly [ERROR_CODE_KEYWORD]?: string;
}

/**
 * Schema options naming the `detail` for each broken keyword and, optionally, the error `code`
 * (one a client may already branch on, such as `INVALID_AMOUNT`); without a code it is `VALIDATION`.
 */
export function refusal(
  code: string | undefined,
  messages: Partial<Record<RefusalKeyword, string>>,
): RefusalAnnotations {
  return code === undefined
    ? { [ERROR_MESSAGES_KEYWORD]: messages }
    : { [ERROR_MESSAGES_KEYWORD]: messages, [ERROR_CODE_KEYWORD]: code };
}
