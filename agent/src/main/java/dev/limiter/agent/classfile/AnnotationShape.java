package dev.limiter.agent.classfile;

/**
 * One runtime-visible annotation as a class file records it: its type and, if it is a string, its
 * {@code value} element ({@code @PathParam("id")}). Nothing else is read: no rule looks at other elements.
 *
 * @param type  the annotation type's binary name, {@code jakarta.ws.rs.GET}
 * @param value the {@code value} element if it is a string written in the source, else null
 */
public record AnnotationShape(String type, String value) {
}
