/// The Lua scripts that make each `RedisStore` change one atomic step in Redis.
///
/// Redis runs a script alone (no other command interleaves), so a compare-and-set, the writes of
/// its idempotency record and its notification are one step for every instance sharing the
/// server. Scripts are sent with `EVALSHA` (loaded with `SCRIPT LOAD` on first use and again after
/// `NOSCRIPT`, e.g. when Redis restarted). The key layout is documented on `RedisStore`.
///
/// - Note: Scripts derive key names from their arguments instead of declaring them in `KEYS`,
///   which standalone Redis (and Sentinel setups) accept but Redis Cluster does not.
enum RedisScript: Int, CaseIterable, Sendable {
    case create, save, touch, delete, expire, idempotencyRecord

    /// Helpers shared by the scripts.
    private static let prelude = #"""
        -- Deletes a session's hash, its idempotency records and index entries; 1 if the hash existed.
        local function purge(id)
          local existed = redis.call('DEL', 'wf:s:' .. id)
          local index = 'wf:ik:' .. id
          local keys = redis.call('ZRANGE', index, 0, -1)
          for _, key in ipairs(keys) do
            redis.call('DEL', 'wf:i:' .. id .. ':' .. key)
            redis.call('ZREM', 'wf:irec', id .. '\n' .. key)
          end
          redis.call('DEL', index)
          redis.call('DEL', 'wf:j:' .. id)
          redis.call('ZREM', 'wf:live', id)
          redis.call('SREM', 'wf:fx', id)
          return existed
        end

        -- Appends ARGV[at] ('<revision> <record length> <record><state>') to the session's journal 'wf:j:{id}', then drops
        -- the oldest while more than ARGV[at + 1] are kept or they hold more than ARGV[at + 2]
        -- bytes of record and state (never the newest); the hash's 'jb' keeps the byte count.
        local function entrySize(entry)
          local first = string.find(entry, ' ', 1, true)
          return #entry - string.find(entry, ' ', first + 1, true)
        end
        local function journal(id, skey, at, ttl)
          local entry = ARGV[at]
          if not entry then return end
          local jkey = 'wf:j:' .. id
          local bytes = tonumber(redis.call('HGET', skey, 'jb') or '0') + entrySize(entry)
          local count = redis.call('RPUSH', jkey, entry)
          local maxEntries, maxBytes = tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
          while count > 1 and (count > maxEntries or bytes > maxBytes) do
            bytes = bytes - entrySize(redis.call('LPOP', jkey))
            count = count - 1
          end
          redis.call('HSET', skey, 'jb', bytes)
          redis.call('PEXPIRE', jkey, ttl)
        end

        -- Files the session under 'wf:fx' while its state may hold pending effects.
        local function noteEffects(id, state)
          if string.find(state, '"effects":', 1, true) then
            redis.call('SADD', 'wf:fx', id)
          else
            redis.call('SREM', 'wf:fx', id)
          end
        end
        """#

    var source: String {
        Self.prelude + "\n" + body
    }

    private var body: String {
        switch self {
        case .create:
            // ARGV: id, rev, token, state, used, keyTTL, max, cutoff, channel, origin, reclaimLimit
            //       [, journal entry, journal entries, journal bytes]
            // -> {'ok', reclaimed ids...} | {'dup'} | {'limit', reclaimed ids...}
            return #"""
                local id = ARGV[1]
                local skey = 'wf:s:' .. id
                if redis.call('EXISTS', skey) == 1 then return {'dup'} end
                purge(id) -- leftovers of an earlier session with this id whose hash expired by TTL
                local reply = {'ok'}
                local max = tonumber(ARGV[7])
                if redis.call('ZCARD', 'wf:live') >= max then
                  local expired = redis.call('ZRANGEBYSCORE', 'wf:live', '-inf', '(' .. ARGV[8],
                    'LIMIT', 0, tonumber(ARGV[11]))
                  for _, old in ipairs(expired) do
                    purge(old)
                    redis.call('PUBLISH', ARGV[9], old .. ' deleted ' .. ARGV[10])
                    reply[#reply + 1] = old
                  end
                  if redis.call('ZCARD', 'wf:live') >= max then
                    reply[1] = 'limit'
                    return reply
                  end
                end
                redis.call('HSET', skey, 'rev', ARGV[2], 'token', ARGV[3], 'state', ARGV[4], 'used', ARGV[5])
                noteEffects(id, ARGV[4])
                journal(id, skey, 12, ARGV[6])
                redis.call('PEXPIRE', skey, ARGV[6])
                redis.call('ZADD', 'wf:live', ARGV[5], id)
                return reply
                """#
        case .save:
            // ARGV: id, expected, rev, token, state, used, keyTTL, channel, origin
            //       [, key, record, createdAt, recordTTL, keyCutoff, keep
            //        [, journal entry, journal entries, journal bytes]]
            // -> {'ok'} | {'notfound'} | {'conflict', rev} | {'keytaken'}
            // An empty key stands for none (a journal entry without an idempotency record).
            // A key whose record was created at or after keyCutoff is taken: nothing is written.
            // After adding a record, only the session's `keep` newest stay.
            return #"""
                local id = ARGV[1]
                local skey = 'wf:s:' .. id
                local current = redis.call('HGET', skey, 'rev')
                if not current then return {'notfound'} end
                if current ~= ARGV[2] then return {'conflict', current} end
                local index = 'wf:ik:' .. id
                local hasKey = ARGV[10] and ARGV[10] ~= ''
                if hasKey then
                  local created = redis.call('ZSCORE', index, ARGV[10])
                  if created and tonumber(created) >= tonumber(ARGV[14]) then return {'keytaken'} end
                end
                local used = ARGV[6]
                local previous = redis.call('HGET', skey, 'used')
                if previous and tonumber(previous) > tonumber(used) then used = previous end
                redis.call('HSET', skey, 'rev', ARGV[3], 'token', ARGV[4], 'state', ARGV[5], 'used', used)
                noteEffects(id, ARGV[5])
                redis.call('PEXPIRE', skey, ARGV[7])
                redis.call('ZADD', 'wf:live', used, id)
                journal(id, skey, 16, ARGV[7])
                if hasKey then
                  redis.call('SET', 'wf:i:' .. id .. ':' .. ARGV[10], ARGV[11], 'PX', ARGV[13])
                  redis.call('ZADD', index, ARGV[12], ARGV[10])
                  redis.call('ZADD', 'wf:irec', ARGV[12], id .. '\n' .. ARGV[10])
                  local extra = redis.call('ZCARD', index) - tonumber(ARGV[15])
                  if extra > 0 then
                    for _, old in ipairs(redis.call('ZRANGE', index, 0, extra - 1)) do
                      redis.call('DEL', 'wf:i:' .. id .. ':' .. old)
                      redis.call('ZREM', 'wf:irec', id .. '\n' .. old)
                      redis.call('ZREM', index, old)
                    end
                  end
                end
                redis.call('PEXPIRE', index, ARGV[7])
                if ARGV[3] ~= ARGV[2] then
                  redis.call('PUBLISH', ARGV[8], id .. ' saved ' .. ARGV[3] .. ' ' .. ARGV[9])
                end
                return {'ok'}
                """#
        case .touch:
            // ARGV: id, now, keyTTL -> 1 | 0 (absent)
            return #"""
                local skey = 'wf:s:' .. ARGV[1]
                local used = redis.call('HGET', skey, 'used')
                if not used then return 0 end
                if tonumber(used) < tonumber(ARGV[2]) then
                  redis.call('HSET', skey, 'used', ARGV[2])
                  redis.call('ZADD', 'wf:live', ARGV[2], ARGV[1])
                end
                redis.call('PEXPIRE', skey, ARGV[3])
                redis.call('PEXPIRE', 'wf:ik:' .. ARGV[1], ARGV[3])
                redis.call('PEXPIRE', 'wf:j:' .. ARGV[1], ARGV[3])
                return 1
                """#
        case .delete:
            // ARGV: id, channel, origin [, expected] -> 1 | 0 | {'conflict', rev}
            return #"""
                if ARGV[4] then
                  local current = redis.call('HGET', 'wf:s:' .. ARGV[1], 'rev')
                  if not current then return 0 end
                  if current ~= ARGV[4] then return {'conflict', current} end
                end
                local existed = purge(ARGV[1])
                if existed == 1 then redis.call('PUBLISH', ARGV[2], ARGV[1] .. ' deleted ' .. ARGV[3]) end
                return existed
                """#
        case .expire:
            // ARGV: sessionCutoff, recordCutoff, limit, channel, origin
            // -> {{expired ids...}, records removed}
            return #"""
                local limit = tonumber(ARGV[3])
                local ids = redis.call('ZRANGEBYSCORE', 'wf:live', '-inf', '(' .. ARGV[1], 'LIMIT', 0, limit)
                for _, id in ipairs(ids) do
                  purge(id)
                  redis.call('PUBLISH', ARGV[4], id .. ' deleted ' .. ARGV[5])
                end
                local records = redis.call('ZRANGEBYSCORE', 'wf:irec', '-inf', '(' .. ARGV[2], 'LIMIT', 0, limit)
                for _, member in ipairs(records) do
                  local split = string.find(member, '\n', 1, true)
                  local id = string.sub(member, 1, split - 1)
                  local key = string.sub(member, split + 1)
                  redis.call('DEL', 'wf:i:' .. id .. ':' .. key)
                  redis.call('ZREM', 'wf:ik:' .. id, key)
                  redis.call('ZREM', 'wf:irec', member)
                end
                return {ids, #records}
                """#
        case .idempotencyRecord:
            // ARGV: id, key -> the record's bytes | nil
            return #"""
                if not redis.call('ZSCORE', 'wf:ik:' .. ARGV[1], ARGV[2]) then return false end
                return redis.call('GET', 'wf:i:' .. ARGV[1] .. ':' .. ARGV[2])
                """#
        }
    }
}
