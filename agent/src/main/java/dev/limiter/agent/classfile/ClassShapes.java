package dev.limiter.agent.classfile;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Type;

/**
 * Reads {@link ClassShape}s with ASM from class files: the class being woven from the bytes the JVM hands over,
 * the others (super types, annotation types, parameter types) as resources of one class loader, each read once
 * per instance. Nothing is loaded, except JDK types asked about by {@link #isSubtypeOf} (loaded by the JDK's own
 * boot loader, never initialised).
 *
 * <p>Why not Byte Buddy's type pool: describing the first class with it loads a few hundred of Byte Buddy's
 * classes, each read from the agent jar and verified, on the application thread that loads the class; that was
 * most of what weaving the first named class cost. The questions asked here (members, flags, annotations, super
 * types) need only ASM, which the weaver loads anyway.
 *
 * <p>An annotation whose type this loader cannot find is left out, as the JVM ignores it: an optional library's
 * annotation neither hides nor adds anything. A class file that cannot be found or read is absent (null). Not
 * thread-safe: one instance per weaving or per question.
 */
public final class ClassShapes {

    /** Deeper than any real hierarchy; stops a malformed cyclic one. */
    private static final int MAX_DEPTH = 64;
    private static final ClassShape ABSENT = new ClassShape("", 0, null, List.of(), List.of(), List.of());
    /**
     * No code, no frames; debug attributes are read, because ASM counts the parameter names ({@code -parameters},
     * {@code MethodParameters}) among them, and Quarkus REST binds path parameters by name. Without the code the
     * rest of the debug information (line and local-variable tables live in the code attribute) is skipped anyway.
     */
    private static final int PARSING = ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES;

    private final ClassLoader loader;
    private final Map<String, ClassShape> shapes = new HashMap<>();
    private final Map<String, Boolean> present = new HashMap<>();

    /** Shapes of the classes {@code loader} sees (null: the system class loader's). */
    public ClassShapes(ClassLoader loader) {
        this.loader = loader == null ? ClassLoader.getSystemClassLoader() : loader;
    }

    /** The shape of {@code classFile}, which then stands for its class in this instance's answers. */
    public ClassShape read(byte[] classFile) {
        ClassShape shape = parse(classFile);
        shapes.put(shape.name(), shape);
        return shape;
    }

    /** The shape of the class {@code binaryName} as this loader's resource, or null if it cannot be read. */
    public ClassShape find(String binaryName) {
        ClassShape known = shapes.get(binaryName);
        if (known == null) {
            byte[] classFile = bytes(binaryName);
            try {
                known = classFile == null ? ABSENT : parse(classFile);
            } catch (RuntimeException malformed) {
                known = ABSENT;
            }
            shapes.put(binaryName, known);
        }
        return known == ABSENT ? null : known;
    }

    /**
     * True if the class {@code binaryName} is {@code superName} or inherits from it (a class or an interface). JDK
     * types are answered by their loaded classes; a super type that cannot be read counts as absent.
     */
    public boolean isSubtypeOf(String binaryName, String superName) {
        return isSubtypeOf(binaryName, superName, new HashSet<>(), 0);
    }

    private boolean isSubtypeOf(String binaryName, String superName, Set<String> seen, int depth) {
        if (binaryName == null || depth > MAX_DEPTH || !seen.add(binaryName)) {
            return false;
        }
        if (binaryName.equals(superName)) {
            return true;
        }
        if (binaryName.startsWith("java.")) {
            Class<?> jdkType = jdkClass(binaryName);
            if (jdkType != null) { // a JDK class inherits only from JDK types
                Class<?> jdkSuper = superName.startsWith("java.") ? jdkClass(superName) : null;
                return jdkSuper != null && jdkSuper.isAssignableFrom(jdkType);
            }
        }
        ClassShape shape = find(binaryName);
        if (shape == null) {
            return false;
        }
        if (isSubtypeOf(shape.superName(), superName, seen, depth + 1)) {
            return true;
        }
        for (String itf : shape.interfaces()) {
            if (isSubtypeOf(itf, superName, seen, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    /** A class of java.base, loaded (never initialised) by the JDK's own loader; null if it is not one. */
    private static Class<?> jdkClass(String binaryName) {
        try {
            return Class.forName(binaryName, false, null);
        } catch (ClassNotFoundException | LinkageError notInJavaBase) {
            return null;
        }
    }

    private byte[] bytes(String binaryName) {
        return classFile(loader, binaryName.replace('.', '/'));
    }

    /**
     * The class file of {@code internalName} ({@code a/b/C}) as a resource of {@code loader}, or null if it
     * cannot be read; a JDK class through the system loader if {@code loader} does not serve it.
     */
    public static byte[] classFile(ClassLoader loader, String internalName) {
        String resource = internalName + ".class";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in != null) {
                return in.readAllBytes();
            }
        } catch (Throwable t) {
            return null;
        }
        if (!internalName.startsWith("java/")) {
            return null;
        }
        // a JDK type (a throw: class, a parameter type) through a loader that does not delegate its resources
        try (InputStream in = ClassLoader.getSystemResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (Throwable t) {
            return null;
        }
    }

    /** True if this loader can find the annotation type {@code binaryName} (JDK types are assumed present). */
    private boolean present(String binaryName) {
        if (binaryName.startsWith("java.")) {
            return true;
        }
        Boolean known = present.get(binaryName);
        if (known == null) {
            known = loader.getResource(binaryName.replace('.', '/') + ".class") != null;
            present.put(binaryName, known);
        }
        return known;
    }

    private ClassShape parse(byte[] classFile) {
        ShapeReader reader = new ShapeReader();
        ClassReaders.of(classFile).accept(reader, PARSING);
        return new ClassShape(reader.name, reader.access, reader.superName, reader.interfaces, reader.annotations,
                reader.methods);
    }

    private static String binaryName(String internalName) {
        return internalName == null ? null : internalName.replace('/', '.');
    }

    /** Collects one class file's shape. */
    private final class ShapeReader extends ClassVisitor {

        String name;
        int access;
        String superName;
        List<String> interfaces = List.of();
        final List<AnnotationShape> annotations = new ArrayList<>();
        final List<MethodShape> methods = new ArrayList<>();

        ShapeReader() {
            super(ClassReaders.API);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.name = binaryName(name);
            this.access = access;
            this.superName = binaryName(superName);
            List<String> names = new ArrayList<>(interfaces == null ? 0 : interfaces.length);
            if (interfaces != null) {
                for (String itf : interfaces) {
                    names.add(binaryName(itf));
                }
            }
            this.interfaces = names;
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return annotation(descriptor, visible, annotations);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            List<String> thrown = new ArrayList<>(exceptions == null ? 0 : exceptions.length);
            if (exceptions != null) {
                for (String exception : exceptions) {
                    thrown.add(binaryName(exception));
                }
            }
            List<AnnotationShape> own = new ArrayList<>(0);
            List<List<AnnotationShape>> onParameters = new ArrayList<>(0);
            List<String> parameterNames = new ArrayList<>(0);
            methods.add(new MethodShape(name, descriptor, access, thrown, own, onParameters, parameterNames));
            return new MethodVisitor(ClassReaders.API) {
                @Override
                public void visitParameter(String parameter, int parameterAccess) {
                    parameterNames.add(parameter);
                }

                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return annotation(annotation, visible, own);
                }

                @Override
                public AnnotationVisitor visitParameterAnnotation(int parameter, String annotation, boolean visible) {
                    while (onParameters.size() <= parameter) {
                        onParameters.add(new ArrayList<>(1));
                    }
                    return annotation(annotation, visible, onParameters.get(parameter));
                }
            };
        }

        /** Records a visible annotation whose type the loader has, with its string {@code value}, into {@code into}. */
        private AnnotationVisitor annotation(String descriptor, boolean visible, List<AnnotationShape> into) {
            String type = Type.getType(descriptor).getClassName();
            if (!visible || !present(type)) {
                return null;
            }
            int at = into.size();
            into.add(new AnnotationShape(type, null));
            return new AnnotationVisitor(ClassReaders.API) {
                @Override
                public void visit(String element, Object value) {
                    if ("value".equals(element) && value instanceof String) {
                        into.set(at, new AnnotationShape(type, (String) value));
                    }
                }
            };
        }
    }
}
