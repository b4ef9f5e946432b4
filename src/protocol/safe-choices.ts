/** As much of a choice as the rule reads (`PromptChoice` of prompt.ts). */
export interface SafeChoiceShape {
  role: string;
  keys: readonly string[];
}

/** As much of a prompt as the rule reads (`AgentPrompt` of prompt.ts). */
export interface SafePromptShape<C extends SafeChoiceShape> {
  complete: boolean;
  kind: string;
  freeText: boolean;
  choices: readonly C[];
}

/**
 * The choices that may be taken for a person who does not see the screen (a notification's buttons,
 * a card's buttons, an approval policy's default): only of a whole permission dialog, its allow-once
 * choice and its deny choice, each only when it is the one of its role and its keys are known. A choice that allows more than this
 * once, or leaves a safety mode, is never among them: that answer needs the person at the screen.
 *
 * It imports nothing, so the web page's bundle takes it without the protocol's schemas; prompt.ts
 * gives it as `safeChoices` for `AgentPrompt`.
 */
export function safeChoicesOf<C extends SafeChoiceShape>(prompt: SafePromptShape<C>): C[] {
  if (!prompt.complete || prompt.kind !== 'permission' || prompt.freeText) return [];
  const safe: C[] = [];
  for (const role of ['allow-once', 'deny'] as const) {
    const matching = prompt.choices.filter((each) => each.role === role);
    // Two choices of one role would make the button's meaning a guess.
    if (matching.length === 1 && matching[0]!.keys.length > 0) safe.push(matching[0]!);
  }
  return safe;
}
