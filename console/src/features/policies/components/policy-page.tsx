import { useNavigate } from 'react-router';
import { POLICIES, type PolicySlug } from './policy-texts';

export function PolicyPage({ slug }: { slug: PolicySlug }) {
  const navigate = useNavigate();
  const policy = POLICIES[slug];
  return (
    <div className="policy-page">
      <button type="button" className="button button--ghost" onClick={() => void navigate(-1)}>
        ← Back
      </button>
      <article className="card">
        <h1>{policy.title}</h1>
        {policy.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </article>
    </div>
  );
}
