# bash completion for ibahprobe. It keeps no lists of its own: commands,
# options and option values come from `ibahprobe __complete`.

_ibahprobe_table() {
	# $1: the binary, $2: command ("" for the common options)
	"$1" __complete options $2 2>/dev/null
}

_ibahprobe() {
	local cur prev bin cmd word i line
	local -a opts
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	bin=${COMP_WORDS[0]}

	# The command is the first word that is neither an option nor the
	# argument of one.
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		case $word in
		-*) continue ;;
		esac
		if _ibahprobe_takes_arg "$bin" "" "${COMP_WORDS[i - 1]}"; then
			continue
		fi
		cmd=$word
		break
	done

	# The value of an option: words, devices or files.
	line=$( { _ibahprobe_table "$bin" ""; [ -n "$cmd" ] &&
		_ibahprobe_table "$bin" "$cmd"; } |
		awk -F'\t' -v o="$prev" '($1 == o || $2 == o) && $3 != "" { print; exit }')
	if [ -n "$line" ]; then
		case $(cut -f4 <<<"$line") in
		words) mapfile -t COMPREPLY < <(compgen -W "$(cut -f5 <<<"$line")" -- "$cur") ;;
		device) mapfile -t COMPREPLY < <(compgen -W "$("$bin" __complete devices 2>/dev/null)" -- "$cur") ;;
		# Files, and the words a file option also takes (report
		# --groups sa).
		file) mapfile -t COMPREPLY < <(compgen -W "$(cut -f5 <<<"$line")" -- "$cur"
			compgen -f -- "$cur") ;;
		esac
		return 0
	fi

	if [[ $cur == -* ]]; then
		mapfile -t opts < <( { _ibahprobe_table "$bin" ""; [ -n "$cmd" ] &&
			_ibahprobe_table "$bin" "$cmd"; } | cut -f1)
		mapfile -t COMPREPLY < <(compgen -W "${opts[*]}" -- "$cur")
		return 0
	fi
	if [ -z "$cmd" ]; then
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" __complete commands 2>/dev/null)" -- "$cur")
	elif [ "$cmd" = help ]; then
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" __complete commands 2>/dev/null)" -- "$cur")
	elif [ "$("$bin" __complete operands "$cmd" 2>/dev/null)" = file ]; then
		# check FILE, report FILE...: the files here.
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
	return 0
}

# Whether option $3 takes an argument (common or command $2 options).
_ibahprobe_takes_arg() {
	{ _ibahprobe_table "$1" ""; [ -n "$2" ] && _ibahprobe_table "$1" "$2"; } |
		awk -F'\t' -v o="$3" '($1 == o || $2 == o) && $3 != "" { found = 1 }
			END { exit !found }'
}

complete -F _ibahprobe ibahprobe
