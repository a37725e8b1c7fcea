import { describe, expect, it } from 'vitest';
import { renewalUpdate } from './context.ts';

describe('renewalUpdate', () => {
  it('sets the renewal columns an update carries', () => {
    expect(
      renewalUpdate({
        autoRenewAccount: { accountNum: 1001n },
        autoRenewPeriod: { seconds: 7_776_000n },
        expiration: { seconds: 1_700_000_000n, nanos: 5 },
      }),
    ).toEqual({
      auto_renew_account_id: 1001n,
      auto_renew_period: 7_776_000n,
      expiration_timestamp: 1_700_000_000_000_000_005n,
    });
  });

  it('leaves out the columns an update does not carry', () => {
    expect(renewalUpdate({})).toEqual({});
    expect(renewalUpdate({ autoRenewPeriod: { seconds: 60n } })).toEqual({ auto_renew_period: 60n });
  });
});
