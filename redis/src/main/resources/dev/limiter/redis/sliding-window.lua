-- Sliding window counter, one atomic check. Same semantics as core's SlidingWindowStrategy:
--   estimate = previous * (window - elapsed) / window + current; admit if estimate + 1 <= limit
-- KEYS[1] = hash {w = window index, p = previous count, c = current count}
-- ARGV = mode (0 take, 1 peek), limit, window millis
-- returns {allowed (1/0), remaining, reset epoch millis, retry-after millis}
-- Lua numbers are doubles: every product below stays under 2^53 because limit < 2^21 and window < 2^32.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local nowWindow = math.floor(now / window)

local function fdiv(a, b) return (a - a % b) / b end
local function cdiv(a, b) local r = a % b; return (a - r) / b + ((r > 0) and 1 or 0) end

local s = redis.call('HMGET', KEYS[1], 'w', 'p', 'c')
local w = tonumber(s[1])
local p = 0
local c = 0
if w == nil then
  w = nowWindow
elseif w == nowWindow or w == nowWindow + 1 then
  p = tonumber(s[2]) or 0
  c = tonumber(s[3]) or 0
elseif w == nowWindow - 1 then
  p = tonumber(s[3]) or 0
  w = nowWindow
else
  w = nowWindow
end
local start = w * window
local elapsed = now - start
if elapsed < 0 then elapsed = 0 end
local weighted = p * (window - elapsed)
local reset = start + 2 * window

local function retryAfter()
  if c < limit then
    return start + window - fdiv((limit - c - 1) * window, p) - now
  end
  return start + 2 * window - fdiv((limit - 1) * window, c) - now
end

if mode == 1 then
  local remaining = limit - c - cdiv(weighted, window)
  if remaining <= 0 then
    return {0, 0, reset, retryAfter()}
  end
  return {1, remaining, reset, 0}
end
if c < limit and weighted <= (limit - c - 1) * window then
  redis.call('HSET', KEYS[1], 'w', w, 'p', p, 'c', c + 1)
  redis.call('PEXPIRE', KEYS[1], reset - now + 1000)
  return {1, limit - c - 1 - cdiv(weighted, window), reset, 0}
end
return {0, 0, reset, retryAfter()}
