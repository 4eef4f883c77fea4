package dev.limiter.agent.startup;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.RequestFrame;
import java.util.List;

/** A delegate that rejects every request and writes "checked" / "ended" to a list: shows who was called when. */
final class RecordingBridgeDelegate implements BridgeDelegate {

    private final List<String> events;

    RecordingBridgeDelegate(List<String> events) {
        this.events = events;
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        events.add("checked");
        return true;
    }

    @Override
    public void onRequestEnd(RequestFrame frame) {
        events.add("ended");
    }
}
