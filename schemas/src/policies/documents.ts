import { AML_POLICY } from './aml-policy';
import { BONUS_POLICY } from './bonus-policy';
import { CLIENT_AGREEMENT } from './client-agreement';
import { PRIVACY } from './privacy';
import { TERMS } from './terms';
import { TRADING_RULES } from './trading-rules';
import type { PolicyDocument, PolicySlug } from './types';

/** Every policy document by its slug (each document's own `slug` is the key it is filed under). */
export const POLICIES: { readonly [S in PolicySlug]: PolicyDocument<S> } = {
  terms: TERMS,
  privacy: PRIVACY,
  rules: TRADING_RULES,
  'client-agreement': CLIENT_AGREEMENT,
  'aml-policy': AML_POLICY,
  'bonus-policy': BONUS_POLICY,
};
