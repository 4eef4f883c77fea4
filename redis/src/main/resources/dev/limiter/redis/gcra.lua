-- Token bucket and leaky bucket (GCRA), one atomic check. Both core strategies admit the same way:
--   debt(now) = max(0, debt - (now - at) * perMilli)   in exact fixed-point units (core's UnitScale)
--   admit if debt + cost <= tolerance; then debt' = debt + cost
-- (a token bucket's "fill" is tolerance - debt). A missing key is a full bucket (no debt).
-- KEYS[1] = hash {d = debt units at time t, t = server millis, k = cost per permit the debt is written in}
-- ARGV = mode (0 take, 1 peek), perMilli, cost, tolerance (capacity * cost), permits wanted (1; more when batching)
-- returns {allowed (1/0), remaining, reset epoch millis, retry-after millis, permits granted, server millis}
-- Lua numbers are doubles: the Java side accepts only configs where tolerance + cost < 2^53, and every value
-- below stays under that bound.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = tonumber(ARGV[1])
local perMilli = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local tolerance = tonumber(ARGV[4])
local wanted = tonumber(ARGV[5]) or 1

local function fdiv(a, b) return (a - a % b) / b end
local function cdiv(a, b) local r = a % b; return (a - r) / b + ((r > 0) and 1 or 0) end

local s = redis.call('HMGET', KEYS[1], 'd', 't', 'k', 'm')
local debt = 0
local stepped = false
if s[1] then
  debt = tonumber(s[1])
  local at = tonumber(s[2]) or now
  local oldCost = tonumber(s[3]) or cost
  local oldPerMilli = tonumber(s[4]) or perMilli
  local elapsed = now - at
  -- a server clock that stepped back drains nothing (and never adds debt); the debt then drains from the new
  -- time, so the key is rewritten at it even on a rejection (else it would wait for the old time)
  if elapsed > 0 then
    if elapsed >= cdiv(debt, oldPerMilli) then
      debt = 0
    else
      debt = debt - elapsed * oldPerMilli
    end
  elseif elapsed < 0 then
    stepped = true
  end
  if oldCost ~= cost then
    -- reconfigured: keep the debt as a number of permits (rounded up, so a change never grants extra)
    debt = cdiv(debt * cost, oldCost)
  end
  if debt > tolerance then debt = tolerance end
end

local nextDebt = debt + cost
if mode == 1 then
  local remaining = fdiv(tolerance - debt, cost)
  if remaining == 0 then
    return {0, 0, now + cdiv(debt, perMilli), cdiv(nextDebt - tolerance, perMilli), 0, now}
  end
  return {1, remaining, now + cdiv(debt, perMilli), 0, 0, now}
end
if nextDebt <= tolerance then
  -- a batch takes what fits when less than it asked for (a slice never over-admits)
  local granted = math.min(wanted, fdiv(tolerance - debt, cost))
  nextDebt = debt + granted * cost
  redis.call('HSET', KEYS[1], 'd', nextDebt, 't', now, 'k', cost, 'm', perMilli)
  -- the key vanishes when the debt has drained: a missing key is a full bucket
  redis.call('PEXPIRE', KEYS[1], cdiv(nextDebt, perMilli) + 1000)
  return {1, fdiv(tolerance - nextDebt, cost), now + cdiv(nextDebt, perMilli), 0, granted, now}
end
if stepped then
  redis.call('HSET', KEYS[1], 'd', debt, 't', now, 'k', cost, 'm', perMilli)
  redis.call('PEXPIRE', KEYS[1], cdiv(debt, perMilli) + 1000)
end
return {0, 0, now + cdiv(debt, perMilli), cdiv(nextDebt - tolerance, perMilli), 0, now}
