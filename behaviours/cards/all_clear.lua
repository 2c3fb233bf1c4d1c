-- EXAMPLE Hazard card: invented text, not a printed card (docs/RULES.md §15.8).
return card {
  id = "all_clear",
  name = "All Clear",
  text = "The hazard is gone and nothing else happens.",
  deck = "hazard",
  play = function(game, ctx)
    game:log(
      "All Clear: the hazard at " .. (ctx.at and (ctx.at.x .. "," .. ctx.at.y) or "?") .. " is gone"
    )
  end,
}
