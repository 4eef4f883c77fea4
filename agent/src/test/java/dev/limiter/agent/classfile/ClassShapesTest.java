package dev.limiter.agent.classfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collection;
import org.junit.jupiter.api.Test;

/** What {@link ClassShapes} reads from class files, and what it leaves out, without loading the classes asked about. */
class ClassShapesTest {

    private final ClassShapes shapes = new ClassShapes(getClass().getClassLoader());

    @Test
    void membersFlagsExceptionsAndAnnotationsWithTheirStringValue() {
        ClassShape shape = shapes.find(Sample.class.getName());
        assertThat(shape.name()).isEqualTo(Sample.class.getName());
        assertThat(shape.superName()).isEqualTo(ArrayList.class.getName());
        assertThat(shape.interfaces()).containsExactly(Runnable.class.getName());
        assertThat(shape.isInterface()).isFalse();
        assertThat(shape.annotations()).containsExactly(new AnnotationShape(Marker.class.getName(), "on class"));

        MethodShape send = shape.method("send", "(Ljava/lang/String;I)V");
        assertThat(send.isPublic()).isTrue();
        assertThat(send.isStatic()).isFalse();
        assertThat(send.parameterCount()).isEqualTo(2);
        assertThat(send.parameterDescriptor()).isEqualTo("(Ljava/lang/String;I)");
        assertThat(send.exceptions()).containsExactly("java.io.IOException");
        assertThat(send.annotations()).containsExactly(new AnnotationShape(Marker.class.getName(), null));
        assertThat(send.annotationsOf(0)).isEmpty();
        assertThat(send.annotationsOf(1)).containsExactly(new AnnotationShape(Marker.class.getName(), "count"));
        assertThat(send.annotationsOf(5)).isEmpty();

        assertThat(shape.methods()).filteredOn(MethodShape::isConstructor).hasSize(1);
        assertThat(shape.method("helper", "()V").isStatic()).isTrue();
        assertThat(shape.method("helper", "()V").isPrivate()).isTrue();
    }

    @Test
    void subtypesAcrossApplicationAndJdkTypes() {
        assertThat(shapes.isSubtypeOf(Sample.class.getName(), Collection.class.getName())).isTrue();
        assertThat(shapes.isSubtypeOf(Sample.class.getName(), Runnable.class.getName())).isTrue();
        assertThat(shapes.isSubtypeOf(Sample.class.getName(), Sample.class.getName())).isTrue();
        assertThat(shapes.isSubtypeOf("java.util.ArrayList", Collection.class.getName())).isTrue();
        assertThat(shapes.isSubtypeOf("java.lang.String", Collection.class.getName())).isFalse();
        assertThat(shapes.isSubtypeOf("java.lang.IllegalStateException", "java.lang.RuntimeException")).isTrue();
        assertThat(shapes.isSubtypeOf(Failure.class.getName(), "java.lang.Throwable")).isTrue();
        assertThat(shapes.isSubtypeOf(Failure.class.getName(), "java.lang.RuntimeException")).isFalse();
        assertThat(shapes.isSubtypeOf(Failure.class.getName(), Sample.class.getName())).isFalse();
        // a JDK type never inherits from an application type
        assertThat(shapes.isSubtypeOf("java.util.ArrayList", Sample.class.getName())).isFalse();
    }

    @Test
    void aMissingClassIsAbsentAndAMissingSuperTypeCountsAsNone() throws Exception {
        assertThat(shapes.find("com.acme.DoesNotExist")).isNull();
        assertThat(shapes.isSubtypeOf("com.acme.DoesNotExist", Collection.class.getName())).isFalse();
        try (URLClassLoader testClassesOnly = new URLClassLoader(new URL[] {codeSource()}, null) {
            @Override
            public URL getResource(String name) {
                return name.equals(Marker.class.getName().replace('.', '/') + ".class") ? null : super.getResource(name);
            }
        }) {
            ClassShapes isolated = new ClassShapes(testClassesOnly);
            ClassShape shape = isolated.find(Sample.class.getName());
            // the loader cannot find @Marker: as the JVM, the shape has no such annotation
            assertThat(shape.annotations()).isEmpty();
            assertThat(shape.method("send", "(Ljava/lang/String;I)V").annotationsOf(1)).isEmpty();
            assertThat(isolated.isSubtypeOf(Sample.class.getName(), Collection.class.getName())).isTrue();
        }
    }

    @Test
    void theBytesReadStandForTheirClass() {
        ClassShape shape = shapes.read(bytesOf(Failure.class));
        assertThat(shapes.find(Failure.class.getName())).isSameAs(shape);
    }

    private static byte[] bytesOf(Class<?> type) {
        try (var in = type.getClassLoader().getResourceAsStream(type.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static URL codeSource() {
        return ClassShapesTest.class.getProtectionDomain().getCodeSource().getLocation();
    }

    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @interface Marker {
        String value() default "";
    }

    @Marker("on class")
    static class Sample extends ArrayList<String> implements Runnable {

        Sample() {
        }

        @Marker
        public void send(String to, @Marker("count") int count) throws java.io.IOException {
        }

        private static void helper() {
        }

        @Override
        public void run() {
        }
    }

    static class Failure extends Exception {
    }
}
