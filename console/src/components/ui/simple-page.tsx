import type { ReactNode } from 'react';
import { AppHeader } from '../app-header';

/** A signed-in page with the shared header and a title. */
export function SimplePage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page">
      <AppHeader />
      <main className="page__body">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
