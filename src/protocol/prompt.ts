/**
 * What a blocked agent asks, as data (docs/protocol.md, "The prompt"): read from its screen by the
 * manifest's prompt readers, with the kind from its own reports (OSC 7501 `kind`, hook payloads)
 * where it gives one.
 */
export const PROMPT_KINDS = ['permission', 'question', 'plan', 'trust', 'auth', 'other'] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

export function isPromptKind(value: unknown): value is PromptKind {
  return typeof value === 'string' && (PROMPT_KINDS as readonly string[]).includes(value);
}

/** One answer the prompt offers, as shown. */
export interface PromptChoice {
  /** Stable within the prompt: the label in lower case, words joined by `-` (`yes`, `no-exit`, `cancel`). */
  id: string;
  /** The label as the agent draws it, without its number or key hint. */
  label: string;
  /** The key names that choose it, typed in order (`["1"]`, `["y"]`, `["Escape"]`, `["Down", "Enter"]`); empty when no key is known. */
  keys: string[];
  /** The choice the cursor is on: Enter takes it. */
  default: boolean;
}

/** The prompt a blocked agent shows. */
export interface AgentPrompt {
  /** This prompt instance: changes when the dialog changes, and each time the agent is blocked anew. */
  id: string;
  kind: PromptKind;
  /** The question as a person reads it, at most a few lines joined by "\n". */
  text: string;
  choices: PromptChoice[];
  /** The answer is text typed into the form (a free-text question), submitted with Enter. */
  freeText: boolean;
  /** Why there are no choices, or what else to know about them; null when there is nothing to add. */
  note: string | null;
  /** Where it was read: `screen:<reader id>`, or `report:<source>` when the screen showed no reader's dialog. */
  source: string;
}
