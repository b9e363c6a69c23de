import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Keeps a chart crash from taking the trading page with it. */
export class ChartErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Chart crashed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="chart-error">
        <h2>Oops! Something went wrong</h2>
        <p>The chart component encountered an error.</p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload Page
        </button>
        <pre className="chart-error__detail">{this.state.error.message}</pre>
      </div>
    );
  }
}
