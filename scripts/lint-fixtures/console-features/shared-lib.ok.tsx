// lint-as: console/src/features/trades/components/lint-fixture.tsx
import type { ChartView } from '../../../lib/chart-view';

export type Layer = (view: ChartView) => void;
