package dev.limiter.agent.outbound.apache;

/**
 * The agent running an exchange's step itself ({@code executeImmediate}) with another callback, untouched by the
 * woven check (it was decided). What the step throws goes to that callback, as the client fails a step it could
 * not run.
 */
final class Execution implements Runnable {

    private final ApacheAsyncApi api;
    private final Object client;
    private final Object[] step;
    private final Object callback;

    Execution(ApacheAsyncApi api, Object client, Object[] step, Object callback) {
        this.api = api;
        this.client = client;
        this.step = step;
        this.callback = callback;
    }

    @Override
    public void run() {
        try {
            api.execute(client, step, callback);
        } catch (Exception e) {
            fail(e);
        } catch (Throwable t) {
            fail(new IllegalStateException(t));
        }
    }

    private void fail(Exception failure) {
        try {
            api.failed(callback, failure);
        } catch (Throwable ignored) {
            // the callback itself failed: nothing more the agent can tell
        }
    }
}
