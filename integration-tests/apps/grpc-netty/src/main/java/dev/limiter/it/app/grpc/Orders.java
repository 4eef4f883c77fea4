package dev.limiter.it.app.grpc;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The test service {@code acme.Orders}, declared by hand as a {@code .proto} would declare it (no protoc here):
 * UTF-8 strings in and out.
 * <ul>
 *   <li>{@code Create} (unary): answers {@code created <request>}.</li>
 *   <li>{@code Watch} (server streaming): the request is a count {@code n}; answers {@code update 1} ..
 *       {@code update n}, then completes.</li>
 *   <li>{@code Hold} (server streaming): answers {@code started} and then nothing until the client cancels (or
 *       60 s pass): a call that stays open, for concurrency limits.</li>
 * </ul>
 * The tests module uses these descriptors for its client.
 */
public final class Orders {

    public static final String SERVICE = "acme.Orders";

    public static final MethodDescriptor<String, String> CREATE =
            method("Create", MethodDescriptor.MethodType.UNARY);
    public static final MethodDescriptor<String, String> WATCH =
            method("Watch", MethodDescriptor.MethodType.SERVER_STREAMING);
    public static final MethodDescriptor<String, String> HOLD =
            method("Hold", MethodDescriptor.MethodType.SERVER_STREAMING);

    private Orders() {
    }

    private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return method(SERVICE, name, type);
    }

    /** The method {@code name} of {@code service}, of {@code type}, with UTF-8 messages. */
    public static MethodDescriptor<String, String> method(String service, String name,
            MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
                .setRequestMarshaller(Utf8.INSTANCE)
                .setResponseMarshaller(Utf8.INSTANCE)
                .build();
    }

    /** A message is its UTF-8 bytes. */
    static final class Utf8 implements MethodDescriptor.Marshaller<String> {

        static final Utf8 INSTANCE = new Utf8();

        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
