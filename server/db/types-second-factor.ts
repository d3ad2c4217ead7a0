/**
 * Tables of the second factor (issue 26, migration 0035): authenticators, recovery codes and the
 * challenges between a sign-in's two steps. Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A user's TOTP authenticator (migration 0035); the secret sealed with the secret box. */
export interface UserSecondFactorsTable {
  user_id: string;
  secret_sealed: string;
  confirmed_at: NullableTimestamp;
  /** The last TOTP time step accepted (replay protection). */
  last_step: ColumnType<string | null, number | null | undefined, number | null>;
  created_at: Generated<Timestamp>;
}

export interface UserRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
}

export interface SecondFactorChallengesTable {
  token_hash: string;
  user_id: string;
  kind: "verify" | "enrol";
  device_id: string;
  device_name: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface SecondFactorTables {
  user_second_factors: UserSecondFactorsTable;
  user_recovery_codes: UserRecoveryCodesTable;
  second_factor_challenges: SecondFactorChallengesTable;
}
