package dev.limiter.agent.method;

import dev.limiter.agent.classfile.ClassReaders;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * The {@code @Limit} annotations of one class, read from its class file (never from a loaded class: the agent
 * decides while the class is being defined, and reflection would load the annotation's and the signatures'
 * classes). Only the values written in the source are in a class file; an attribute left at its default is
 * absent, which is what "not set" means to {@code AnnotationRule}.
 *
 * <p>Values by attribute name: strings and numbers as ASM gives them, {@code throwClass} as a binary class name.
 */
public final class LimitDeclarations {

    /** The annotation's descriptor. */
    public static final String DESCRIPTOR = "Ldev/limiter/api/Limit;";

    private String className;
    private Map<String, Object> onClass;
    private final Map<String, Map<String, Object>> onMethods = new LinkedHashMap<>();
    /** Name, descriptor and whether it is public, of each method with a body, in class-file order. */
    private final List<Object[]> bodies = new ArrayList<>();

    private LimitDeclarations() {
    }

    /** The class's annotations, or null if neither it nor any of its methods carries {@code @Limit}. */
    public static LimitDeclarations read(byte[] classFile) {
        LimitDeclarations found = new LimitDeclarations();
        ClassReader reader = ClassReaders.of(classFile);
        reader.accept(found.new Reader(), ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found.onClass == null && found.onMethods.isEmpty() ? null : found;
    }

    /** The binary name of the class ({@code com.acme.Outer$Mailer}). */
    public String className() {
        return className;
    }

    /**
     * Every method the agent weaves for an annotation, as {@code [name, descriptor]} with its values: the
     * annotated methods that have a body, and the class's public ones if the class is annotated (for tools).
     */
    public Map<String[], Map<String, Object>> woven() {
        Map<String[], Map<String, Object>> all = new LinkedHashMap<>();
        for (Object[] method : bodies) {
            String[] signature = {(String) method[0], (String) method[1]};
            Map<String, Object> values = onMethod(signature[0], signature[1]);
            if (values == null && onClass != null && (Boolean) method[2]) {
                values = onClass;
            }
            if (values != null) {
                all.put(signature, values);
            }
        }
        return all;
    }

    /** The values of the annotation on the class itself, or null. */
    Map<String, Object> onClass() {
        return onClass;
    }

    /** The values of the annotation on method {@code name} with {@code descriptor}, or null. */
    Map<String, Object> onMethod(String name, String descriptor) {
        return onMethods.get(name + descriptor);
    }

    /** True if some method (not the class) carries the annotation. */
    boolean onAnyMethod() {
        return !onMethods.isEmpty();
    }

    private final class Reader extends ClassVisitor {

        Reader() {
            super(ClassReaders.API);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            className = name.replace('/', '.');
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            if (!DESCRIPTOR.equals(descriptor)) {
                return null;
            }
            onClass = new HashMap<>();
            return new Values(onClass);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            int excluded = Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC;
            if ((access & excluded) == 0 && name.charAt(0) != '<') {
                // woven if annotated, or (public) if the class is: what SitePlanner decides from the description
                bodies.add(new Object[] {name, descriptor, (access & Opcodes.ACC_PUBLIC) != 0});
            }
            return new MethodVisitor(ClassReaders.API) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    if (!DESCRIPTOR.equals(annotation)) {
                        return null;
                    }
                    Map<String, Object> values = new HashMap<>();
                    onMethods.put(name + descriptor, values);
                    return new Values(values);
                }
            };
        }
    }

    private static final class Values extends AnnotationVisitor {

        private final Map<String, Object> values;

        Values(Map<String, Object> values) {
            super(ClassReaders.API);
            this.values = values;
        }

        @Override
        public void visit(String name, Object value) {
            values.put(name, value instanceof Type type ? type.getClassName() : value);
        }

        @Override
        public void visitEnum(String name, String descriptor, String value) {
            values.put(name, value);
        }
    }
}
