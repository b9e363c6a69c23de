// lint-as: security/lint-fixture.ts
import { startInProcessPlatform } from '@updown/platform/testing';
import { hashRefreshToken } from '@updown/accounts/testing';

export const used = { startInProcessPlatform, hashRefreshToken };
