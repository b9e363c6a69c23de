// lint-as: services/price-ingest/src/lint-fixture.ts
// expect: import-x/no-extraneous-dependencies
// Every edge the package graph allows is declared today, so this import is also an upward one
// (no-restricted-paths fires too); the rule under test is that price-ingest never declared it.
import { transfer } from '@updown/wallet';

export const move = transfer;
