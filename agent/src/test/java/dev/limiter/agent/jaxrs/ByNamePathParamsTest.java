package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * Quarkus REST binds a path parameter by its name: with {@code @RestPath}, or with no annotation when the name is
 * a variable of the {@code @Path} template (the class file keeps parameter names: Quarkus compiles with
 * {@code -parameters}). The resource here is written with ASM, as such a build would compile
 * {@code @Path("/hello") class Greeting { @GET @Path("/greet/{name}") String greet(String name, int times);
 * @GET @Path("/by/{who}") String by(@RestPath String who); @GET @Path("/alias/{id}") String alias(@RestPath("id")
 * String other); @GET @Path("/plain") String plain(String name); }}.
 */
class ByNamePathParamsTest {

    private static final String TYPE = "quarkustest.Greeting";

    private final ClassShapes shapes = new ClassShapes(new ClassLoader(getClass().getClassLoader()) {
        @Override
        public InputStream getResourceAsStream(String name) {
            return name.equals(TYPE.replace('.', '/') + ".class") ? new ByteArrayInputStream(resource())
                    : super.getResourceAsStream(name);
        }
    });

    @Test
    void anUnannotatedParameterNamedInTheTemplate() {
        assertThat(index("greet", "name")).isEqualTo(0);
        assertThat(index("greet", "times")).as("not a template variable").isEqualTo(-1);
    }

    @Test
    void restPathWithAndWithoutAValue() {
        assertThat(index("by", "who")).isEqualTo(0);
        assertThat(index("alias", "id")).isEqualTo(0);
        assertThat(index("alias", "other")).as("bound as id").isEqualTo(-1);
    }

    @Test
    void aNameOutsideTheTemplateIsNoPathParameter() {
        assertThat(index("plain", "name")).isEqualTo(-1);
    }

    private int index(String method, String name) {
        ClassShape shape = shapes.find(TYPE);
        MethodShape found = shape.methods().stream().filter(m -> m.name().equals(method)).findFirst().orElseThrow();
        return JaxrsPathParams.parameterIndex(shape, found, JaxrsNamespace.JAKARTA, name, shapes);
    }

    private static byte[] resource() {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "quarkustest/Greeting", null, "java/lang/Object", null);
        path(writer.visitAnnotation("Ljakarta/ws/rs/Path;", true), "/hello");
        method(writer, "greet", "(Ljava/lang/String;I)Ljava/lang/String;", "/greet/{name}", null,
                "name", "times");
        method(writer, "by", "(Ljava/lang/String;)Ljava/lang/String;", "/by/{who}", "", "who");
        method(writer, "alias", "(Ljava/lang/String;)Ljava/lang/String;", "/alias/{id}", "id", "other");
        method(writer, "plain", "(Ljava/lang/String;)Ljava/lang/String;", "/plain", null, "name");
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A resource method; {@code restPath}: the first parameter's {@code @RestPath} value, null for none. */
    private static void method(ClassWriter writer, String name, String descriptor, String path, String restPath,
            String... parameters) {
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC, name, descriptor, null, null);
        for (String parameter : parameters) {
            method.visitParameter(parameter, 0);
        }
        method.visitAnnotation("Ljakarta/ws/rs/GET;", true).visitEnd();
        path(method.visitAnnotation("Ljakarta/ws/rs/Path;", true), path);
        if (restPath != null) {
            AnnotationVisitor annotation = method.visitParameterAnnotation(0,
                    "Lorg/jboss/resteasy/reactive/RestPath;", true);
            if (!restPath.isEmpty()) {
                annotation.visit("value", restPath);
            }
            annotation.visitEnd();
        }
        method.visitCode();
        method.visitInsn(Opcodes.ACONST_NULL);
        method.visitInsn(Opcodes.ARETURN);
        method.visitMaxs(1, 1 + parameters.length + 1);
        method.visitEnd();
    }

    private static void path(AnnotationVisitor annotation, String value) {
        annotation.visit("value", value);
        annotation.visitEnd();
    }
}
