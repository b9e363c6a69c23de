// lint-as: console/src/features/trades/components/lint-fixture.tsx
// expect: import-x/no-restricted-paths
import type { ChartView } from '../../market/components/price-chart';

export type Layer = (view: ChartView) => void;
