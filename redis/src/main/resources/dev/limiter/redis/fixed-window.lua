-- Fixed window counter, one atomic check. Same semantics as core's FixedWindowStrategy, with the time of the
-- Redis server (TIME), so the clocks of the JVMs play no part.
-- KEYS[1] = hash {w = window index, n = count}
-- ARGV = mode (0 take, 1 peek), limit, window millis, permits wanted (1; more when batching)
-- returns {allowed (1/0), remaining, reset epoch millis, retry-after millis, permits granted, server millis}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local wanted = tonumber(ARGV[4]) or 1
local nowWindow = math.floor(now / window)

local s = redis.call('HMGET', KEYS[1], 'w', 'n')
local w = tonumber(s[1])
local n = tonumber(s[2]) or 0
-- a stored window one ahead (server clock stepped back) keeps counting; anything else starts afresh
if w == nil or (w ~= nowWindow and w ~= nowWindow + 1) then
  w = nowWindow
  n = 0
end
local windowEnd = (w + 1) * window
if n >= limit then
  return {0, 0, windowEnd, windowEnd - now, 0, now}
end
if mode == 1 then
  return {1, limit - n, windowEnd, 0, 0, now}
end
-- a batch takes what is left when less than it asked for (a slice never over-admits)
local granted = math.min(wanted, limit - n)
n = n + granted
redis.call('HSET', KEYS[1], 'w', w, 'n', n)
-- idle keys vanish by themselves once their window is over (a missing key = a full budget)
redis.call('PEXPIRE', KEYS[1], windowEnd - now + 1000)
return {1, limit - n, windowEnd, 0, granted, now}
