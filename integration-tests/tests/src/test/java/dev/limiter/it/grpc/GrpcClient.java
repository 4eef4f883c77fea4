package dev.limiter.it.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real grpc-java client of the forked test service (apps/grpc-netty): the same hand-written descriptors (UTF-8
 * messages), any service name ({@code it.Exact}), optional request metadata. Every call answers an
 * {@link Answer}: the status, the messages received and the trailers, so tests read a rejection like a success.
 */
final class GrpcClient implements AutoCloseable {

    private final ManagedChannel channel;

    GrpcClient(int port) {
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();
    }

    /** What one call ended with. */
    record Answer(Status.Code code, String description, List<String> messages, Metadata trailers) {

        String trailer(String name) {
            return trailers == null ? null : trailers.get(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER));
        }

        @Override
        public String toString() {
            return code + " " + description + " " + messages + " trailers " + trailers;
        }
    }

    /** {@code service/Create} (unary) with {@code metadata} as name, value pairs. */
    Answer create(String service, String request, String... metadata) {
        try {
            String reply = ClientCalls.blockingUnaryCall(channel(metadata), method(service, "Create",
                    MethodDescriptor.MethodType.UNARY), CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS),
                    request);
            return new Answer(Status.Code.OK, null, List.of(reply), null);
        } catch (StatusRuntimeException e) {
            return failed(e, List.of());
        }
    }

    /** {@code service/Watch} (server streaming): {@code count} messages, read to the end. */
    Answer watch(String service, int count, String... metadata) {
        List<String> received = new ArrayList<>();
        try {
            Iterator<String> replies = ClientCalls.blockingServerStreamingCall(channel(metadata),
                    method(service, "Watch", MethodDescriptor.MethodType.SERVER_STREAMING),
                    CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), Integer.toString(count));
            while (replies.hasNext()) {
                received.add(replies.next());
            }
            return new Answer(Status.Code.OK, null, received, null);
        } catch (StatusRuntimeException e) {
            return failed(e, received);
        }
    }

    /** A number the service answers at {@code service/Handled}: how many times its methods ran. */
    int handled(String service) {
        return Integer.parseInt(ClientCalls.blockingUnaryCall(channel, method(service, "Handled",
                MethodDescriptor.MethodType.UNARY), CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), ""));
    }

    /**
     * Starts {@code service/Hold} (a stream that stays open): {@code started} completes with the first message
     * or the rejection, {@code ended} when the call ends.
     */
    Held hold(String service, String tag) {
        ClientCall<String, String> call = channel.newCall(method(service, "Hold",
                MethodDescriptor.MethodType.SERVER_STREAMING), CallOptions.DEFAULT.withDeadlineAfter(60,
                TimeUnit.SECONDS));
        Held held = new Held(call);
        ClientCalls.asyncServerStreamingCall(call, tag, held);
        return held;
    }

    /** An open {@code Hold} call. */
    static final class Held implements StreamObserver<String> {

        final CompletableFuture<Answer> started = new CompletableFuture<>();
        final CompletableFuture<Answer> ended = new CompletableFuture<>();
        private final ClientCall<String, String> call;

        Held(ClientCall<String, String> call) {
            this.call = call;
        }

        /** The client cancels the call (the server sees {@code onCancel}). */
        void cancel() {
            call.cancel("the test client hangs up", null);
        }

        @Override
        public void onNext(String value) {
            started.complete(new Answer(Status.Code.OK, null, List.of(value), null));
        }

        @Override
        public void onError(Throwable t) {
            Answer answer = t instanceof StatusRuntimeException e ? failed(e, List.of())
                    : new Answer(Status.Code.UNKNOWN, t.toString(), List.of(), null);
            started.complete(answer);
            ended.complete(answer);
        }

        @Override
        public void onCompleted() {
            Answer answer = new Answer(Status.Code.OK, null, List.of(), null);
            started.complete(answer);
            ended.complete(answer);
        }
    }

    private static Answer failed(StatusRuntimeException e, List<String> received) {
        return new Answer(e.getStatus().getCode(), e.getStatus().getDescription(), received, e.getTrailers());
    }

    private io.grpc.Channel channel(String... metadata) {
        if (metadata.length == 0) {
            return channel;
        }
        Metadata headers = new Metadata();
        for (int i = 0; i < metadata.length; i += 2) {
            headers.put(Metadata.Key.of(metadata[i], Metadata.ASCII_STRING_MARSHALLER), metadata[i + 1]);
        }
        return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    static MethodDescriptor<String, String> method(String service, String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
                .setRequestMarshaller(Utf8.INSTANCE)
                .setResponseMarshaller(Utf8.INSTANCE)
                .build();
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    private static final class Utf8 implements MethodDescriptor.Marshaller<String> {

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
