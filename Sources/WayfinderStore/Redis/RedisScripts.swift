/// The Lua scripts that make each `RedisStore` change one atomic step in Redis.
///
/// Redis runs a script alone (no other command interleaves), so a compare-and-set, the writes of
/// its idempotency record, its index entries (pending effects too: a session is filed in `fx`
/// while its state holds them) and its notification are one step for every instance sharing
/// the server. A change is published only if an instance watches the session
/// (`RedisWatches`). The key layout is documented on `RedisStore`: a session's keys
/// are declared in `KEYS` (they share the session's slot, so a cluster runs the script on the
/// node that holds them); keys derived inside a script (another record of the same session,
/// sessions found in the same slot's index) are in the same slot. `expire` and `count` run once
/// per node over the index keys of the slots it serves (a single Redis: the one pair).
///
/// Scripts are sent with `EVALSHA`; the first call, and a call answered `NOSCRIPT` (Redis
/// restarted, or another node), sends the source with `EVAL`, which loads it.
/// Every script's `ARGV[1]` is the key prefix.
enum RedisScript: Int, CaseIterable, Sendable {
    case create, save, touch, delete, expire, idempotencyRecord, count, pendingEffects

    /// Helpers shared by the scripts, in order (a helper uses only those before it). A script
    /// defines only those it uses: each is a closure made at every call.
    private static let helpers: [(name: String, source: String)] = [
        ("skey", #"local function skey(id) return P .. 's:{' .. id .. '}' end"#),
        ("ikey", #"local function ikey(id) return P .. 'ik:{' .. id .. '}' end"#),
        ("rkey", #"local function rkey(id, key) return P .. 'i:{' .. id .. '}:' .. key end"#),
        ("jkey", #"local function jkey(id) return P .. 'j:{' .. id .. '}' end"#),
        ("notify", #"""
        -- Publishes a change of session `id` if some instance watches it (has event streams or
        -- long polls on it: `wf:w:{id}` exists), so unwatched changes cost no message.
        local function notify(channel, id, message)
          if redis.call('EXISTS', P .. 'w:{' .. id .. '}') == 1 then redis.call('PUBLISH', channel, message) end
        end
        """#),
        ("indexes", #"""
        -- The index triples (sessions by use, records by age, sessions with pending effects) named
        -- by ARGV[first...]: slot tags in a cluster, none for a single Redis (its one triple).
        local function indexes(first)
          if #ARGV < first then return {{P .. 'live', P .. 'irec', P .. 'fx'}} end
          local found = {}
          for i = first, #ARGV do
            local t = '{' .. ARGV[i] .. '}'
            found[#found + 1] = {P .. 'live:' .. t, P .. 'irec:' .. t, P .. 'fx:' .. t}
          end
          return found
        end
        """#),
        ("noteEffects", #"""
        -- Files or unfiles session `id` in `fx` when its 'fx' field moves from `was` to `now`.
        local function noteEffects(fx, id, was, now)
          if now == (was or '0') then return end
          if now == '1' then redis.call('SADD', fx, id) else redis.call('SREM', fx, id) end
        end
        """#),
        ("purge", #"""
        -- Deletes a session's hash, its idempotency records, index entries and watchers (notify
        -- first); 1 if the hash existed.
        local function purge(id, live, irec, fx)
          local existed = redis.call('DEL', skey(id))
          redis.call('DEL', P .. 'w:{' .. id .. '}')
          local index = ikey(id)
          for _, key in ipairs(redis.call('ZRANGE', index, 0, -1)) do
            redis.call('DEL', rkey(id, key))
            redis.call('ZREM', irec, id .. '\n' .. key)
          end
          redis.call('DEL', index)
          redis.call('DEL', jkey(id))
          redis.call('ZREM', live, id)
          redis.call('SREM', fx, id)
          return existed
        end
        """#),
        ("entrySize", #"""
        -- The bytes of record and state of a journal entry.
        local function entrySize(entry)
          local first = string.find(entry, ' ', 1, true)
          return #entry - string.find(entry, ' ', first + 1, true)
        end
        """#),
        ("journal", #"""
        -- Appends ARGV[at] ('<revision> <record length> <record><state>', ARGV[at + 1] bytes of record
        -- and state) to session `id`'s journal (a list in its slot), then drops the oldest while
        -- more than ARGV[at + 2] are kept or they hold more than ARGV[at + 3] bytes of record and
        -- state (never the newest). `jb` is the hash's byte count before; returns it after (the
        -- caller writes it with the hash), or nil without an entry. The list's Redis TTL is set
        -- when `refresh` (the session's moves) or when the list is new.
        local function journal(id, at, jb, refresh, ttl)
          local entry = ARGV[at]
          if not entry or entry == '' then return nil end
          local key = jkey(id)
          local bytes = tonumber(jb or '0') + tonumber(ARGV[at + 1])
          local count = redis.call('RPUSH', key, entry)
          local maxEntries, maxBytes = tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
          while count > 1 and (count > maxEntries or bytes > maxBytes) do
            bytes = bytes - entrySize(redis.call('LPOP', key))
            count = count - 1
          end
          if refresh or count == 1 then redis.call('PEXPIRE', key, ttl) end
          return bytes
        end
        """#),
    ]

    /// Each script's source, its helpers first (`source`).
    private static let sources: [String] = allCases.map { script in
        var used = script.body
        var chosen: [String] = []
        for helper in helpers.reversed() where used.contains(helper.name + "(") {
            chosen.append(helper.source)
            used += helper.source
        }
        return (["local P = ARGV[1]"] + chosen.reversed() + [script.body]).joined(separator: "\n")
    }

    /// The script's Lua source.
    var source: String {
        Self.sources[rawValue]
    }

    private var body: String {
        switch self {
        case .create:
            // KEYS: session, key index, live, irec, fx
            // ARGV: prefix, id, rev, token, state, used, keyTTL, max (-1: unchecked), cutoff, channel, origin, reclaimLimit,
            //       fx ('1' if the state may hold pending effects, else '0')
            //       [, journal entry, its size, journal entries, journal bytes]
            // -> {'ok', reclaimed ids...} | {'dup'} | {'limit', reclaimed ids...}
            return #"""
                local id = ARGV[2]
                if redis.call('EXISTS', KEYS[1]) == 1 then return {'dup'} end
                purge(id, KEYS[3], KEYS[4], KEYS[5]) -- leftovers of an earlier session with this id whose hash expired by TTL
                local reply = {'ok'}
                local max = tonumber(ARGV[8])
                if max >= 0 and redis.call('ZCARD', KEYS[3]) >= max then
                  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[9], 'LIMIT', 0, tonumber(ARGV[12]))
                  for _, old in ipairs(expired) do
                    notify(ARGV[10], old, old .. ' deleted ' .. ARGV[11])
                    purge(old, KEYS[3], KEYS[4], KEYS[5])
                    reply[#reply + 1] = old
                  end
                  if redis.call('ZCARD', KEYS[3]) >= max then
                    reply[1] = 'limit'
                    return reply
                  end
                end
                local fx = ARGV[13]
                local jb = journal(id, 14, nil, true, ARGV[7])
                if jb then
                  redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'token', ARGV[4], 'state', ARGV[5], 'used', ARGV[6], 'fx', fx, 'jb', jb)
                else
                  redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'token', ARGV[4], 'state', ARGV[5], 'used', ARGV[6], 'fx', fx)
                end
                noteEffects(KEYS[5], id, '0', fx)
                redis.call('PEXPIRE', KEYS[1], ARGV[7])
                redis.call('ZADD', KEYS[3], ARGV[6], id)
                return reply
                """#
        case .save:
            // KEYS: session, key index, live, irec, fx [, record]
            // ARGV: prefix, id, expected, rev, token, state, used, keyTTL, channel, origin, fx ('1' if the
            //       state may hold pending effects, else '0')
            //       [, journal entry, its size, journal entries, journal bytes
            //        [, key, record, createdAt, recordTTL, keyCutoff, keep]]
            // -> {'ok'} | {'notfound'} | {'conflict', rev} | {'keytaken'}
            // An empty entry stands for none (an idempotency record without a journal entry).
            // A key whose record was created at or after keyCutoff is taken: nothing is written.
            // After adding a record, only the session's `keep` newest stay.
            // `used` only moves forward; when it does not move (most saves: the API moves it at
            // most every touch interval), neither do the keys' Redis TTLs nor the index entry.
            // The hash is written once, with the journal's byte count.
            return #"""
                local id = ARGV[2]
                local current = redis.call('HMGET', KEYS[1], 'rev', 'used', 'fx', 'jb')
                if not current[1] then return {'notfound'} end
                if current[1] ~= ARGV[3] then return {'conflict', current[1]} end
                local hasKey = ARGV[16] and ARGV[16] ~= ''
                if hasKey then
                  local created = redis.call('ZSCORE', KEYS[2], ARGV[16])
                  if created and tonumber(created) >= tonumber(ARGV[20]) then return {'keytaken'} end
                end
                local fx = ARGV[11]
                noteEffects(KEYS[5], id, current[3], fx)
                local moved = tonumber(current[2]) < tonumber(ARGV[7])
                local jb = journal(id, 12, current[4], moved, ARGV[8]) or current[4]
                local fields = {'rev', ARGV[4], 'token', ARGV[5], 'state', ARGV[6], 'fx', fx}
                if jb then fields[#fields + 1] = 'jb'; fields[#fields + 1] = jb end
                if moved then
                  fields[#fields + 1] = 'used'; fields[#fields + 1] = ARGV[7]
                  redis.call('HSET', KEYS[1], unpack(fields))
                  redis.call('PEXPIRE', KEYS[1], ARGV[8])
                  redis.call('PEXPIRE', KEYS[2], ARGV[8])
                  redis.call('ZADD', KEYS[3], ARGV[7], id)
                else
                  redis.call('HSET', KEYS[1], unpack(fields))
                end
                if hasKey then
                  redis.call('SET', KEYS[6], ARGV[17], 'PX', ARGV[19])
                  redis.call('ZADD', KEYS[2], ARGV[18], ARGV[16])
                  redis.call('ZADD', KEYS[4], ARGV[18], id .. '\n' .. ARGV[16])
                  local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[21])
                  if extra > 0 then
                    for _, old in ipairs(redis.call('ZRANGE', KEYS[2], 0, extra - 1)) do
                      redis.call('DEL', rkey(id, old))
                      redis.call('ZREM', KEYS[4], id .. '\n' .. old)
                      redis.call('ZREM', KEYS[2], old)
                    end
                  end
                  redis.call('PEXPIRE', KEYS[2], ARGV[8])
                end
                if ARGV[4] ~= ARGV[3] then
                  notify(ARGV[9], id, id .. ' saved ' .. ARGV[4] .. ' ' .. ARGV[10])
                end
                return {'ok'}
                """#
        case .touch:
            // KEYS: session, key index, live. ARGV: prefix, id, now, keyTTL -> 1 | 0 (absent)
            return #"""
                local used = redis.call('HGET', KEYS[1], 'used')
                if not used then return 0 end
                if tonumber(used) < tonumber(ARGV[3]) then
                  redis.call('HSET', KEYS[1], 'used', ARGV[3])
                  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
                end
                redis.call('PEXPIRE', KEYS[1], ARGV[4])
                redis.call('PEXPIRE', KEYS[2], ARGV[4])
                redis.call('PEXPIRE', jkey(ARGV[2]), ARGV[4])
                return 1
                """#
        case .delete:
            // KEYS: session, key index, live, irec, fx. ARGV: prefix, id, channel, origin [, expected]
            // -> 1 | 0 | {'conflict', rev}
            return #"""
                if ARGV[5] then
                  local current = redis.call('HGET', KEYS[1], 'rev')
                  if not current then return 0 end
                  if current ~= ARGV[5] then return {'conflict', current} end
                end
                if redis.call('EXISTS', KEYS[1]) == 1 then notify(ARGV[3], ARGV[2], ARGV[2] .. ' deleted ' .. ARGV[4]) end
                return purge(ARGV[2], KEYS[3], KEYS[4], KEYS[5])
                """#
        case .expire:
            // No KEYS (one node's own index keys). ARGV: prefix, sessionCutoff, recordCutoff, limit,
            // channel, origin [, slot tags...] -> {{expired ids...}, records removed}
            return #"""
                local limit = tonumber(ARGV[4])
                local expired = {}
                local records = 0
                for _, index in ipairs(indexes(7)) do
                  if #expired >= limit or records >= limit then break end
                  local live, irec, fx = index[1], index[2], index[3]
                  for _, id in ipairs(redis.call('ZRANGEBYSCORE', live, '-inf', '(' .. ARGV[2], 'LIMIT', 0, limit - #expired)) do
                    notify(ARGV[5], id, id .. ' deleted ' .. ARGV[6])
                    purge(id, live, irec, fx)
                    expired[#expired + 1] = id
                  end
                  for _, member in ipairs(redis.call('ZRANGEBYSCORE', irec, '-inf', '(' .. ARGV[3], 'LIMIT', 0, limit - records)) do
                    local split = string.find(member, '\n', 1, true)
                    local id = string.sub(member, 1, split - 1)
                    local key = string.sub(member, split + 1)
                    redis.call('DEL', rkey(id, key))
                    redis.call('ZREM', ikey(id), key)
                    redis.call('ZREM', irec, member)
                    records = records + 1
                  end
                end
                return {expired, records}
                """#
        case .idempotencyRecord:
            // KEYS: key index, record. ARGV: prefix, key -> the record's bytes | nil
            return #"""
                if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return false end
                return redis.call('GET', KEYS[2])
                """#
        case .count:
            // No KEYS (one node's own index keys). ARGV: prefix [, slot tags...] -> sessions
            return #"""
                local total = 0
                for _, index in ipairs(indexes(2)) do total = total + redis.call('ZCARD', index[1]) end
                return total
                """#
        case .pendingEffects:
            // No KEYS (one node's own index keys). ARGV: prefix, limit [, slot tags...] -> ids
            return #"""
                local limit = tonumber(ARGV[2])
                local found = {}
                for _, index in ipairs(indexes(3)) do
                  if #found >= limit then break end
                  for _, id in ipairs(redis.call('SRANDMEMBER', index[3], limit - #found)) do found[#found + 1] = id end
                end
                return found
                """#
        }
    }
}
