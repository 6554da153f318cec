print("strata-schema: not implemented yet")
