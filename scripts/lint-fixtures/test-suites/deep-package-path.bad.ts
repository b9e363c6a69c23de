// lint-as: security/lint-fixture.ts
// expect: no-restricted-imports
import { hashRefreshToken } from '@updown/gateway/src/auth/tokens';

export const hash = hashRefreshToken;
