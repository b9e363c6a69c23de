/**
 * Fixed vectors, also printed in docs/receipts.md: two ticks of BTCUSDT, a checkpoint over them
 * signed with the RFC 8032 test key 1 (whose secret is public: never a real key), and that key's
 * RFC 7638 thumbprint (the RFC 8037 example).
 */
export const TICK_1 = {
  pair: 'BTCUSDT',
  seq: 1,
  atMs: 1764000000123,
  price: '95012.34',
  prevHash: '0000000000000000000000000000000000000000000000000000000000000000',
  content:
    'updown.tick.v1|BTCUSDT|1|1764000000123|95012.34|0000000000000000000000000000000000000000000000000000000000000000',
  hash: '5b96abe07e1615a57ab1e265a9bf16495105e57a7ad47462977ae6c903104bed',
} as const;

export const TICK_2 = {
  pair: 'BTCUSDT',
  seq: 2,
  atMs: 1764000000370,
  price: '95012.5',
  prevHash: TICK_1.hash,
  content:
    'updown.tick.v1|BTCUSDT|2|1764000000370|95012.5|5b96abe07e1615a57ab1e265a9bf16495105e57a7ad47462977ae6c903104bed',
  hash: '59c4d8bdbc05ea2693301339a211005ae78fdae5e3b2db873797faf317aec38a',
} as const;

/** RFC 8032 §7.1 test 1. */
export const RFC8032_TEST_1 = {
  secretHex: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  /** The signature of the empty message. */
  emptyMessageSignatureHex:
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  /** RFC 8037 appendix A.3. */
  thumbprint: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
} as const;

export const CHECKPOINT_1_2 = {
  checkpoint: {
    type: 'updown.checkpoint.v1',
    pair: 'BTCUSDT',
    fromSeq: 1,
    toSeq: 2,
    ticks: 2,
    fromMs: 1764000000123,
    toMs: 1764000000370,
    startHash: TICK_1.prevHash,
    headHash: TICK_2.hash,
    signedAtMs: 1764000001000,
  },
  canonical:
    '{"fromMs":1764000000123,"fromSeq":1,"headHash":"59c4d8bdbc05ea2693301339a211005ae78fdae5e3b2db873797faf317aec38a","pair":"BTCUSDT","signedAtMs":1764000001000,"startHash":"0000000000000000000000000000000000000000000000000000000000000000","ticks":2,"toMs":1764000000370,"toSeq":2,"type":"updown.checkpoint.v1"}',
  signature: {
    alg: 'Ed25519',
    kid: RFC8032_TEST_1.thumbprint,
    sig: 'ZHPDIG3WiYlt-_hcrzDOOupDWyUEqhV-L-mF1NS59nJPvr9d-BOcs5z6QFn6gzoo3Xz5Xicer6W-w3o_kTS-CQ',
  },
} as const;

export const RFC8032_KEY_SET = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: RFC8032_TEST_1.x,
      kid: RFC8032_TEST_1.thumbprint,
      use: 'sig',
      alg: 'EdDSA',
      status: 'active',
    },
  ],
};

/**
 * The key set thumbprint of {@link RFC8032_KEY_SET}: SHA-256, in base64url, of this canonical text
 * (the keys in kid order, each reduced to crv, kid, kty, status and x).
 */
export const RFC8032_KEY_SET_THUMBPRINT_INPUT =
  '[{"crv":"Ed25519","kid":"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k","kty":"OKP","status":"active","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]';
export const RFC8032_KEY_SET_THUMBPRINT = '7rhWnEb6EoPaM7AoVJs_0yiyTmsq-x5PtEnwvhfwUzM';
