#!/usr/bin/env bash
# A busy agent that draws the way the agents recorded in test/fixtures/streams/ do: the working screen
# once (a transcript, a spinner line, the prompt box), then every 100 ms only the spinner's row,
# addressed by the cursor inside a synchronized update, and the spinner title; once a second a new
# transcript line, its rows written again where they moved. Shell builtins only, so that the load is
# the terminal's, not the program's. The spinner row numbers its frames ("tick N").
spin=(⠋ ⠙ ⠹ ⠸ ⠼ ⠴ ⠦ ⠧ ⠇ ⠏)
rule=$(printf '─%.0s' {1..100})
lines=()
# The transcript's rows up to line $1, cursor-addressed, into $drawn (no subshell: builtins only).
transcript() {
  local k
  drawn=''
  for ((k=$1-19; k<=$1; k++)); do drawn+=$'\e['$((k-$1+20))';1H'"${lines[(k+20)%20]}"$'\e[K'; done
}
for ((k=0; k<20; k++)); do lines[k]="  ⎿  src/module/file-$k.ts: updated line $k of the transcript, café 漢字 — tests passed"; done
transcript 19
printf '\e[H\e[2J%s\e[21;1H\e[38;5;174m✽\e[0m Tempering… (tick 0 · esc to interrupt)\r\n\r\n%s\r\n❯ \r\n%s\r\n  ? for shortcuts\e[24;3H' "$drawn" "$rule" "$rule"
i=0
while :; do
  i=$((i+1))
  # One write per frame, as the recorded agents draw one.
  frame=$'\e[?2026h'
  if ((i % 10 == 0)); then
    lines[(19+i/10)%20]="  ⎿  src/module/file-$((i%13)).ts: updated line $((19+i/10)) of the transcript, café 漢字 — tests passed"
    transcript $((19+i/10))
    frame+=$drawn
  fi
  printf '%s\e]0;%s Busy Agent\a\e[21;1H\e[38;5;174m%s\e[0m Tempering… (tick %d · esc to interrupt)\e[K\e[24;3H\e[?2026l' "$frame" "${spin[i%10]}" "${spin[i%10]}" "$i"
  read -rs -t 0.1 -n 1 _
done
