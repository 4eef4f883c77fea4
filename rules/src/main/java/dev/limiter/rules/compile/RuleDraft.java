package dev.limiter.rules.compile;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.match.HostMatch;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.match.PathPattern;
import dev.limiter.rules.yaml.YamlNode;
import java.util.List;

/**
 * A rule that passed validation, before it gets live state; {@code limitAt} is where a store's refusal points;
 * {@code hostMatch} and {@code maxBackoffNanos} are an {@code http-client:} rule's (else null and 0).
 */
record RuleDraft(String id, Rule.Target target, List<String> paths, PathPattern[] patterns, int methodBits,
        List<String> httpMethods, NameGlob classGlob, NameGlob methodGlob, KeySpec key, RateLimitStrategy strategy,
        LimitConfig config, int maxKeys, OnFull onFull, Mode mode, OnError onError, String throwClass, StoreSpec store,
        YamlNode limitAt, PolicyDraft policy, HostMatch hostMatch, long maxBackoffNanos) {
}
