/**
 * The published policy documents (spec §2 "Policy pages", §9): one source for the console's policy
 * pages and for the test that holds their figures to the engine's constants
 * (`services/platform/src/policies.test.ts`).
 *
 * Re-exports only: the console's routes import `POLICY_SLUGS` alone, and keeping the documents in
 * their own modules lets the build leave their text out of the landing page's scripts (it goes
 * with the lazily loaded policy page).
 */
export {
  POLICY_SLUGS,
  type PolicyBlock,
  type PolicyDocument,
  type PolicySection,
  type PolicySlug,
} from './types';
export { POLICIES } from './documents';
