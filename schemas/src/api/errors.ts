import { Type, type Static } from '@sinclair/typebox';

/**
 * The body of every error the API returns, whatever the status. The console shows `detail`;
 * `code` is a stable identifier (`VALIDATION`, `INSUFFICIENT_FUNDS`, ...) for code that branches.
 */
export const ErrorResponse = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable explanation, safe to show to the user' }),
    code: Type.String({ description: 'Stable machine-readable error code', examples: ['VALIDATION'] }),
  },
  { title: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;
