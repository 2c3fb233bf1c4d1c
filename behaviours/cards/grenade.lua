-- EXAMPLE Item card: invented text and numbers, not a printed card (docs/RULES.md §15.8).
return card {
  id = "grenade",
  name = "Grenade",
  text = "The Hero who found it throws it at once: the closest Alien model within 4 squares "
    .. "loses 2 Health.",
  deck = "item",
  play = function(game, ctx)
    local hero = ctx.unit and ctx.unit:models()[1]
    if hero == nil then
      return
    end
    ---@type Model?
    local best = nil
    local best_d = 5
    for _, m in ipairs(game:aliens()) do
      local d = game:distance(m, hero)
      if d < best_d then
        best, best_d = m, d
      end
    end
    if best == nil then
      game:log("Grenade: no Alien within 4 squares")
      return
    end
    game:damage(best, 2)
  end,
}
