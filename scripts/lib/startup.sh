# Shared by scripts/startup-overhead and scripts/startup-cpu: the reference agents, the variants' java options,
# and the statistics of the tables.

# build_noop_agent DIR JAVA: writes two one-class reference agents.
#   DIR/noop-agent.jar    registers a retransform-capable transformer that returns null for every class: what
#                         any agent that weaves at class load costs (the JVM's class-file-load hook on every class
#                         defined), the floor to read a measured agent against;
#   DIR/noop-premain.jar  a premain that returns at once: what loading any agent costs without a transformer.
build_noop_agent() {
  local dir="$1" java="$2"
  mkdir -p "$dir/noop-agent"
  cat > "$dir/noop-agent/NoopAgent.java" <<'JAVA'
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

public class NoopAgent {
    public static void premain(String args, Instrumentation inst) {
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                    byte[] classFile) {
                return null;
            }
        }, true);
    }
}
JAVA
  printf 'Premain-Class: NoopAgent\nCan-Retransform-Classes: true\n' > "$dir/noop-agent/manifest.txt"
  "${java%java}javac" -d "$dir/noop-agent" "$dir/noop-agent/NoopAgent.java" 2>/dev/null \
    || javac -d "$dir/noop-agent" "$dir/noop-agent/NoopAgent.java"
  "${java%java}jar" cfm "$dir/noop-agent.jar" "$dir/noop-agent/manifest.txt" -C "$dir/noop-agent" . 2>/dev/null \
    || jar cfm "$dir/noop-agent.jar" "$dir/noop-agent/manifest.txt" -C "$dir/noop-agent" .
  mkdir -p "$dir/noop-premain"
  printf 'public class NoopPremain {\n    public static void premain(String args) {\n    }\n}\n' \
    > "$dir/noop-premain/NoopPremain.java"
  printf 'Premain-Class: NoopPremain\n' > "$dir/noop-premain/manifest.txt"
  "${java%java}javac" -d "$dir/noop-premain" "$dir/noop-premain/NoopPremain.java" 2>/dev/null \
    || javac -d "$dir/noop-premain" "$dir/noop-premain/NoopPremain.java"
  "${java%java}jar" cfm "$dir/noop-premain.jar" "$dir/noop-premain/manifest.txt" -C "$dir/noop-premain" . 2>/dev/null \
    || jar cfm "$dir/noop-premain.jar" "$dir/noop-premain/manifest.txt" -C "$dir/noop-premain" .
}

# agent_opt VARIANT: its java options, given $WORK (the reference agents and rules.yml). "-" is no agent, else
# "jar[:extra options]"; the jar may be noop-agent or noop-premain (build_noop_agent).
agent_opt() {
  if [ "$1" = - ]; then echo ""; return; fi
  local jar="${1%%:*}" extra=""
  if [ "$jar" != "$1" ]; then extra="${1#*:}"; fi
  if [ "$jar" = noop-agent ] || [ "$jar" = noop-premain ]; then jar="$WORK/$jar.jar"; fi
  echo "$extra -javaagent:$jar=$WORK/rules.yml"
}

# aot_training_opt VARIANT: for a variant "jar:-XX:AOTCache=FILE" whose FILE does not exist yet, the java options
# of its training run (the same agent, -XX:AOTCacheOutput=FILE); nothing for any other variant.
aot_training_opt() {
  case "$1" in *:-XX:AOTCache=*) ;; *) return 0 ;; esac
  if [ -f "${1##*:-XX:AOTCache=}" ]; then return 0; fi
  local opt
  opt="$(agent_opt "$1")"
  echo "${opt/-XX:AOTCache=/-XX:AOTCacheOutput=}"
}

# the median of the numbers on standard input (one per line)
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }

# paired COLUMN BASE VARIANT: column COLUMN of each round (line) in file VARIANT minus the same round in file BASE,
# as "median [25th, 75th percentile]"
paired() {
  paste -d' ' <(cut -d' ' -f"$1" "$2") <(cut -d' ' -f"$1" "$3") | awk '{print $2 - $1}' | sort -n \
    | awk '{a[NR]=$1} END {q1=a[int((NR+3)/4)]; q3=a[NR+1-int((NR+3)/4)]; m=(NR%2)?a[(NR+1)/2]:int((a[NR/2]+a[NR/2+1])/2); printf "%+d [%+d, %+d]", m, q1, q3}'
}
