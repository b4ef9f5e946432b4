#!/usr/bin/env bash
# A busy agent for load: every 100 ms it redraws a Claude-like working screen (a transcript that grows
# by one line, a spinner line, the prompt box) and sets a spinner title. Shell builtins only, so that
# the load is the terminal's, not the program's.
spin=(⠋ ⠙ ⠹ ⠸ ⠼ ⠴ ⠦ ⠧ ⠇ ⠏)
rule=$(printf '─%.0s' {1..100})
lines=()
i=0
while :; do
  i=$((i+1))
  lines[i%20]="  ⎿  src/module/file-$((i%13)).ts: updated line $i of the transcript, café 漢字 — tests passed"
  out=''
  for ((k=i-19; k<=i; k++)); do out+="${lines[(k+20)%20]}"$'\r\n'; done
  printf '\e]0;%s Busy Agent\a\e[H\e[2J%s\r\n\e[38;5;174m✽\e[0m Tempering… (%ds · esc to interrupt)\r\n\r\n%s\r\n❯ \r\n%s\r\n  ? for shortcuts' "${spin[i%10]}" "$out" $((i/10)) "$rule" "$rule"
  read -rs -t 0.1 -n 1 _
done
