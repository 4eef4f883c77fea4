# build_noop_agent DIR JAVA: writes DIR/noop-agent.jar, a one-class agent whose retransform-capable transformer
# returns null for every class: what any agent that registers a transformer costs (the JVM's class-file-load hook
# on every class defined), the floor to read a measured agent against. Sourced by the start-up scripts.
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
}
