/**
 * The freeze and KYC status a token account starts with, from its token (the alias `token` names a left-joined
 * `token` row): frozen (1) when the token freezes by default, unfrozen (2) when it has a freeze key, not applicable
 * (0) without one; KYC revoked (2) with a KYC key, not applicable (0) without. Null while the token is not known.
 */
export function defaultFreezeStatus(token: string): string {
  return `case when ${token}.token_id is null then null when ${token}.freeze_key is null then 0 when ${token}.freeze_default then 1 else 2 end`;
}

export function defaultKycStatus(token: string): string {
  return `case when ${token}.token_id is null then null when ${token}.kyc_key is null then 0 else 2 end`;
}
