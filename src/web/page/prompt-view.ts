import { el } from './format.ts';

/** A blocked agent's prompt as the daemon reads it (docs/protocol.md, "The prompt"). */
export interface PagePrompt {
  id: string;
  kind: string;
  text: string;
  choices: { id: string; label: string; keys: string[]; default?: boolean }[];
}

/** How long an armed risky choice waits for its second tap. */
const ARM_MS = 5000;

/**
 * A choice that widens what the agent may do from now on, or leaves a safety mode: it needs a second,
 * deliberate tap. A plain yes for this one action does not.
 */
export function isRisky(choice: PagePrompt['choices'][number]): boolean {
  return /always|don'?t ask|do not ask|all edits|for this session|bypass|leave|auto-?accept|yolo/i.test(choice.label) || choice.keys.some((key) => /^s(hift)?-?\+?tab$/i.test(key) || key === 'BTab');
}

/**
 * The question and its choices as buttons. A button answers this prompt and no other: it sends the
 * prompt's id, and the daemon refuses it (prompt_changed) if the screen shows another by then.
 */
export function renderPrompt(
  prompt: PagePrompt,
  answer: (body: { choice?: string; text?: string }) => Promise<void>,
): HTMLElement {
  const box = el('section', `prompt prompt-${prompt.kind}`, '', el('div', 'prompt-kind', prompt.kind), el('pre', 'prompt-text', prompt.text));
  box.dataset.promptId = prompt.id;
  const status = el('div', 'prompt-status');
  if (prompt.choices.length === 0) {
    const input = el('textarea', 'prompt-answer');
    input.rows = 2;
    input.placeholder = 'Your answer';
    const send = el('button', 'choice', 'Answer');
    send.onclick = () => void answer({ text: input.value }).catch((error: Error) => (status.textContent = error.message));
    box.append(input, send);
  }
  const buttons = el('div', 'choices');
  for (const choice of prompt.choices) {
    const risky = isRisky(choice);
    const button = el('button', `choice${choice.default ? ' choice-default' : ''}${risky ? ' choice-risky' : ''}`, choice.label);
    button.dataset.choice = choice.id;
    let armed: ReturnType<typeof setTimeout> | null = null;
    button.onclick = () => {
      if (risky && armed === null) {
        button.classList.add('armed');
        button.textContent = `Tap again: ${choice.label}`;
        armed = setTimeout(() => {
          armed = null;
          button.classList.remove('armed');
          button.textContent = choice.label;
        }, ARM_MS);
        return;
      }
      if (armed !== null) clearTimeout(armed);
      for (const other of buttons.querySelectorAll('button')) other.disabled = true;
      status.textContent = 'Answering…';
      answer({ choice: choice.id }).then(
        () => (status.textContent = 'Answered.'),
        (error: Error) => {
          status.textContent = error.message;
          for (const other of buttons.querySelectorAll('button')) other.disabled = false;
        },
      );
    };
    buttons.append(button);
  }
  box.append(buttons, status);
  return box;
}
