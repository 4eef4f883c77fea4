package dev.limiter.agent.startup;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.RequestFrame;
import java.util.List;

/** A delegate that writes "checked" / "ended" to a list (shows who was called when) and rejects or admits all. */
final class RecordingBridgeDelegate implements BridgeDelegate {

    private final List<String> events;
    private final boolean rejects;

    /** Rejects every request. */
    RecordingBridgeDelegate(List<String> events) {
        this(events, true);
    }

    RecordingBridgeDelegate(List<String> events, boolean rejects) {
        this.events = events;
        this.rejects = rejects;
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        events.add("checked");
        return rejects;
    }

    @Override
    public void onRequestEnd(RequestFrame frame) {
        events.add("ended");
    }
}
