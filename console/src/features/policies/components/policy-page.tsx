import { useNavigate } from 'react-router';
import { POLICIES, type PolicyBlock, type PolicySlug } from '@updown/schemas/policies';

/** '2026-12-01' → '1 December 2026': the calendar day itself, whatever the reader's time zone. */
export function formatEffectiveDate(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function Block({ block }: { block: PolicyBlock }) {
  if (typeof block === 'string') return <p>{block}</p>;
  return (
    <ul>
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

/** A policy document (spec §2 "Policy pages"): its text lives in `@updown/schemas/policies`. */
export function PolicyPage({ slug }: { slug: PolicySlug }) {
  const navigate = useNavigate();
  const policy = POLICIES[slug];
  const titleId = `policy-${slug}-title`;
  return (
    <div className="policy-page">
      <button type="button" className="button button--ghost" onClick={() => void navigate(-1)}>
        ← Back
      </button>
      <article className="card policy-document" aria-labelledby={titleId}>
        <header className="policy-document__header">
          <h1 id={titleId}>{policy.title}</h1>
          <p className="muted">
            Version {policy.version} · Effective{' '}
            <time dateTime={policy.effective_date}>{formatEffectiveDate(policy.effective_date)}</time>
          </p>
          {policy.summary && <p className="policy-document__summary">{policy.summary}</p>}
        </header>
        {policy.sections.map((section) => {
          const headingId = `policy-${slug}-section-${section.number}`;
          return (
            <section key={section.number} className="policy-section" aria-labelledby={headingId}>
              <h2 id={headingId} className="card-title">
                {section.number}. {section.heading}
              </h2>
              {section.blocks.map((block, index) => (
                <Block key={index} block={block} />
              ))}
            </section>
          );
        })}
      </article>
    </div>
  );
}
