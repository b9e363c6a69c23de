/**
 * The shape of a published policy document: what the console renders on the policy pages and what
 * the engine-side consistency test (`services/platform/src/policies.test.ts`) reads. Pure data.
 */

/** The six policy pages, each served at `/<slug>` (spec §2 "Policy pages"). */
export const POLICY_SLUGS = [
  'terms',
  'privacy',
  'rules',
  'client-agreement',
  'aml-policy',
  'bonus-policy',
] as const;
export type PolicySlug = (typeof POLICY_SLUGS)[number];

/** A paragraph, or a bulleted list of items. */
export type PolicyBlock = string | { readonly list: readonly string[] };

export interface PolicySection {
  /** '1', '2', …: consecutive within the document, shown before the heading. */
  readonly number: string;
  readonly heading: string;
  readonly blocks: readonly PolicyBlock[];
}

export interface PolicyDocument<S extends PolicySlug = PolicySlug> {
  readonly slug: S;
  readonly title: string;
  /** Raised whenever the text changes; shown at the top of the page. */
  readonly version: string;
  /** The day this version applies from, ISO 8601 (YYYY-MM-DD). */
  readonly effective_date: string;
  readonly summary?: string;
  readonly sections: readonly PolicySection[];
}
