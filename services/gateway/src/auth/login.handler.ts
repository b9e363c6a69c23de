import type { LoginResponse } from '@updown/schemas/api';
import { normaliseEmail } from './auth.domain';
import type { AuthContext } from './auth.context';
import { InvalidCredentials } from './auth.errors';
import { withAccountLock } from './account-lock';
import { signIn } from './sessions.handler';
import { findUserByEmail, setPasswordHash, type UserRow } from './users.repository';

/**
 * Email and password sign-in. An unknown email is hashed against a dummy hash and counted under
 * the account lock like a known one, so neither the answer, its timing nor a lock tells whether
 * an account exists.
 */
export async function passwordLogin(
  ctx: AuthContext,
  input: { email: string; password: string },
): Promise<LoginResponse> {
  const email = normaliseEmail(input.email);
  const user = await withAccountLock(ctx, email, 'password', async () => {
    const found = await findUserByEmail(ctx.db, email);
    const matches = found
      ? await ctx.hasher.verify(input.password, found.password_hash)
      : await ctx.hasher.verifyNobody(input.password);
    return found && matches
      ? { ok: true as const, value: found }
      : { ok: false as const, error: new InvalidCredentials() };
  });
  await upgradeHash(ctx, user, input.password);
  return signIn(ctx, user);
}

/** Re-hashes with the current parameters after they were raised; the password is at hand only now. */
async function upgradeHash(ctx: AuthContext, user: UserRow, password: string): Promise<void> {
  if (!ctx.hasher.needsRehash(user.password_hash)) return;
  await setPasswordHash(ctx.db, user.id, await ctx.hasher.hash(password), new Date(ctx.clock.now()));
}
