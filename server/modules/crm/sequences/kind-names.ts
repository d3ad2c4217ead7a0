/**
 * The names the sequences share with the run engine: the kind of run, the event that resumes
 * a step held while its sequence was paused, and what a run of a sequence starts with.
 */
import type { SequenceStep } from "../../../../schemas/crm-sequence-steps";
import type { LinearDefinition } from "../../../runs";

/** Runs of kind 'sequence': owner key the sequence's id, subject the client. */
export const SEQUENCE_KIND = "sequence";

/** Signalled to each held run when its sequence is made active again. */
export const RESUMED_EVENT = "sequence.resumed";

/**
 * A held step looks at its sequence again after this long even without the event. Resuming
 * signals the held runs in its own transaction, so this only bounds how long a step could stay
 * held should a signal ever be missed.
 */
export const HOLD_RECHECK_MS = 7 * 24 * 60 * 60 * 1000;

/** The steps a run follows (pinned by the engine for the run's life). */
export type SequenceDefinition = LinearDefinition<SequenceStep>;

/** What an enrolment starts with: who and how, and what the client had agreed to then. */
export interface SequenceContext {
  enrolledBy: string | null;
  /** 'manual' (one client), 'list' (a selection), 'form' (a form's answer). */
  source: string;
  consent: { email: boolean; sms: boolean };
}

/** A step's key in its sequence: a held step runs again as `<key>@2`, `<key>@3`… */
export const baseKey = (key: string) => key.split("@")[0];
export const holdNumber = (key: string) => Number(key.split("@")[1] ?? 1);
