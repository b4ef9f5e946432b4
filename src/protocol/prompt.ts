import { Type, type Static } from '@sinclair/typebox';
import { safeChoicesOf } from './safe-choices.ts';
import { Literals } from './schema.ts';

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

/**
 * What a choice does, as the manifest's prompt reader knows it (docs/manifests.md, "Choice roles"):
 * `allow-once` lets this one action go on, `allow-always` lets it and more go on without asking again
 * (or leaves a safety mode), `deny` refuses it, `other` anything else or unknown.
 */
export const CHOICE_ROLES = ['allow-once', 'allow-always', 'deny', 'other'] as const;
export type ChoiceRole = (typeof CHOICE_ROLES)[number];

/** One answer the prompt offers, as shown. */
export const PromptChoice = Type.Object(
  {
    id: Type.String({ description: 'Stable within the prompt: the label in lower case, words joined by `-` (`yes`, `no-exit`, `cancel`).' }),
    label: Type.String({ description: 'The label as the agent draws it, without its number or key hint.' }),
    keys: Type.Array(Type.String(), {
      description: 'The key names that choose it, typed in order (`["1"]`, `["y"]`, `["Escape"]`, `["Down", "Enter"]`); empty when no key is known.',
    }),
    default: Type.Boolean({ description: 'The choice the cursor is on: Enter takes it.' }),
    role: Literals(CHOICE_ROLES, {
      description: 'What it does, as the prompt reader knows it: `allow-once`, `allow-always` (more than this once, or leaving a safety mode), `deny`, or `other`.',
    }),
  },
  { $id: 'PromptChoice', description: 'One answer the prompt offers, as shown.' },
);
export type PromptChoice = Static<typeof PromptChoice>;

/** The prompt a blocked agent shows. */
export const AgentPrompt = Type.Object(
  {
    id: Type.String({ description: 'This prompt instance, the dialog on the screen: kept while the same dialog stays drawn (drawn further, redrawn, reflowed, annotated by a report); new when the dialog changes (its cursor too), and each time the agent is blocked anew.' }),
    kind: Literals(PROMPT_KINDS),
    text: Type.String({ description: 'The question as a person reads it, at most a few lines joined by "\\n".' }),
    choices: Type.Array(PromptChoice),
    freeText: Type.Boolean({ description: 'The answer is text typed into the form (a free-text question), submitted with Enter.' }),
    note: Type.Union([Type.String(), Type.Null()], { description: 'Why there are no choices, or what else to know about them; null when there is nothing to add.' }),
    source: Type.String({ description: 'Where it was read: `screen:<reader id>`, or `report:<source>` when the screen showed no reader\'s dialog.' }),
    complete: Type.Boolean({
      description:
        'True only when a reader saw the whole dialog: its top and its footer or last choice drawn, every line of its text and every choice whole. ' +
        'False for a dialog cut by the screen\'s edge, not yet drawn to its end, shortened by the reader\'s limits, or not read from the screen at all: then `incomplete` says why, and an answer given blind should wait or look.',
    }),
    incomplete: Type.Union([Type.String(), Type.Null()], {
      description: 'Why `complete` is false, for a person (`its footer is not drawn: ...`; several reasons joined by "; "); null when complete.',
    }),
  },
  { $id: 'AgentPrompt', description: 'The prompt a blocked agent shows.' },
);
export type AgentPrompt = Static<typeof AgentPrompt>;

/**
 * The choices that may be taken for a person who does not see the screen (safe-choices.ts, where
 * the web page's bundle takes it from without this file's schemas).
 */
export function safeChoices(prompt: AgentPrompt): PromptChoice[] {
  return safeChoicesOf(prompt);
}
