package dev.limiter.it.app.grpc;

import io.grpc.HandlerRegistry;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * grpc-java 1.85 on its shaded Netty transport serving {@link Orders}, bound the way generated code binds a
 * service ({@code ServerCalls.asyncUnaryCall} / {@code asyncServerStreamingCall}). {@code main([port])} (default
 * 0: any free port) prints {@code LISTENING <port>} once calls are accepted, and {@code CANCELLED Hold} each time
 * a client cancels a {@code Hold} call (the tests wait for it).
 *
 * <p>Any other service name is served too, with the same methods ({@link ScenarioServices}): every test scenario
 * calls a service of its own ({@code it.Exact/Create}), so rules matching one scenario's service never count
 * another's calls. {@code <service>/Handled} answers how many times that service's methods ran.
 */
public final class GrpcApp {

    private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "hold-timer");
        thread.setDaemon(true);
        return thread;
    });

    private GrpcApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        ServerServiceDefinition orders = ServerServiceDefinition.builder(Orders.SERVICE)
                .addMethod(Orders.CREATE, ServerCalls.asyncUnaryCall(GrpcApp::create))
                .addMethod(Orders.WATCH, ServerCalls.asyncServerStreamingCall(GrpcApp::watch))
                .addMethod(Orders.HOLD, ServerCalls.asyncServerStreamingCall(GrpcApp::hold))
                .build();
        Server server = ServerBuilder.forPort(port).addService(orders)
                .fallbackHandlerRegistry(new ScenarioServices()).build().start();
        System.out.println("LISTENING " + server.getPort());
        System.out.flush();
        server.awaitTermination();
    }

    private static final Map<String, AtomicInteger> HANDLED = new ConcurrentHashMap<>();

    /** Serves {@code <any service>/Create|Watch|Hold|Handled}, one definition per full method name. */
    private static final class ScenarioServices extends HandlerRegistry {

        private final Map<String, ServerMethodDefinition<?, ?>> methods = new ConcurrentHashMap<>();

        @Override
        public ServerMethodDefinition<?, ?> lookupMethod(String fullMethodName, String authority) {
            return methods.computeIfAbsent(fullMethodName, GrpcApp::define);
        }
    }

    private static ServerMethodDefinition<?, ?> define(String fullMethodName) {
        String service = MethodDescriptor.extractFullServiceName(fullMethodName);
        String method = fullMethodName.substring(fullMethodName.indexOf('/') + 1);
        AtomicInteger handled =
                HANDLED.computeIfAbsent(service, name -> new AtomicInteger());
        switch (method) {
            case "Create":
                return ServerMethodDefinition.create(Orders.method(service, method, MethodDescriptor.MethodType.UNARY),
                        ServerCalls.asyncUnaryCall((request, responses) -> {
                            handled.incrementAndGet();
                            create(request, responses);
                        }));
            case "Handled":
                return ServerMethodDefinition.create(Orders.method(service, method, MethodDescriptor.MethodType.UNARY),
                        ServerCalls.asyncUnaryCall((request, responses) -> {
                            responses.onNext(Integer.toString(handled.get()));
                            responses.onCompleted();
                        }));
            case "Watch":
                return ServerMethodDefinition.create(
                        Orders.method(service, method, MethodDescriptor.MethodType.SERVER_STREAMING),
                        ServerCalls.asyncServerStreamingCall((request, responses) -> {
                            handled.incrementAndGet();
                            watch(request, responses);
                        }));
            case "Hold":
                return ServerMethodDefinition.create(
                        Orders.method(service, method, MethodDescriptor.MethodType.SERVER_STREAMING),
                        ServerCalls.asyncServerStreamingCall((request, responses) -> {
                            handled.incrementAndGet();
                            hold(request, responses);
                        }));
            default:
                return null;
        }
    }

    private static void create(String request, StreamObserver<String> responses) {
        responses.onNext("created " + request);
        responses.onCompleted();
    }

    private static void watch(String request, StreamObserver<String> responses) {
        int count = Integer.parseInt(request.trim());
        for (int i = 1; i <= count; i++) {
            responses.onNext("update " + i);
        }
        responses.onCompleted();
    }

    private static void hold(String request, StreamObserver<String> responses) {
        ServerCallStreamObserver<String> call = (ServerCallStreamObserver<String>) responses;
        call.setOnCancelHandler(() -> {
            System.out.println("CANCELLED Hold " + request);
            System.out.flush();
        });
        responses.onNext("started");
        TIMERS.schedule(() -> {
            if (!call.isCancelled()) {
                responses.onCompleted();
            }
        }, 60, TimeUnit.SECONDS);
    }
}
