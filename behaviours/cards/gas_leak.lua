-- EXAMPLE Hazard card: invented text and numbers, not a printed card (docs/RULES.md §15.8).
-- Drawn when a Hazard token is destroyed (two damage in one attack, or a critical hit).
return card {
  id = "gas_leak",
  name = "Gas Leak",
  text = "The destroyed hazard vents: every model on its square or next to it loses 1 Health.",
  deck = "hazard",
  copies = 2,
  play = function(game, ctx)
    local at = ctx.at
    if at == nil then
      return
    end
    for _, list in ipairs { game:heroes(), game:aliens() } do
      for _, m in ipairs(list) do
        if game:distance(m, at) <= 1 then
          game:damage(m, 1)
        end
      end
    end
  end,
}
