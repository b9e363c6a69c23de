import { EXCHANGE_PROVIDERS, FEED_PROVIDERS, SPREAD_BPS_MAX, isExchange, type FeedDraft } from './feed-draft';

interface Props {
  value: FeedDraft;
  onChange: (draft: FeedDraft) => void;
}

/**
 * A pair's feed: its provider (with the exchange's symbol for an exchange) and an optional
 * reference exchange its prices are checked against, with the largest disagreement allowed.
 * Shared by the add form and the per-pair feed editor; the fields sit in their parent's row.
 */
export function FeedFields({ value, onChange }: Props) {
  const set = (changes: Partial<FeedDraft>) => onChange({ ...value, ...changes });
  // A pair's reference is another exchange than its own feed.
  const references = EXCHANGE_PROVIDERS.filter((provider) => provider !== value.provider);

  const onProvider = (provider: string) =>
    set({
      provider,
      ...(provider === value.referenceProvider ? { referenceProvider: '' } : {}),
    });

  return (
    <>
      <label className="field">
        <span>Provider</span>
        <select value={value.provider} onChange={(event) => onProvider(event.target.value)}>
          {FEED_PROVIDERS.map((provider) => (
            <option key={provider} value={provider}>
              {provider}
            </option>
          ))}
        </select>
      </label>
      {isExchange(value.provider) && (
        <label className="field">
          <span>Exchange Symbol</span>
          <input
            value={value.providerSymbol}
            placeholder="e.g. BTC/USDT"
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(event) => set({ providerSymbol: event.target.value })}
          />
        </label>
      )}
      <label className="field">
        <span>Reference Provider</span>
        <select
          value={value.referenceProvider}
          onChange={(event) => set({ referenceProvider: event.target.value })}
        >
          <option value="">None</option>
          {references.map((provider) => (
            <option key={provider} value={provider}>
              {provider}
            </option>
          ))}
        </select>
      </label>
      {value.referenceProvider !== '' && (
        <>
          <label className="field">
            <span>Reference Symbol</span>
            <input
              value={value.referenceSymbol}
              placeholder="e.g. BTC-USD"
              autoCapitalize="characters"
              spellCheck={false}
              onChange={(event) => set({ referenceSymbol: event.target.value })}
            />
          </label>
          <label className="field">
            <span>Spread (bps)</span>
            <input
              type="number"
              min="1"
              max={SPREAD_BPS_MAX}
              step="1"
              inputMode="numeric"
              value={value.spreadBps}
              placeholder="e.g. 50"
              onChange={(event) => set({ spreadBps: event.target.value })}
            />
          </label>
        </>
      )}
    </>
  );
}
