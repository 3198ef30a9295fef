"""One folder per exercise: its `Exercise` with its checks, stub, solution and wrong variants.

Underscored because none of it is API: the registry, `scratchgrad.exercises.registry`, lists
the exercises in the order of the story; pages include the files as snippets.
"""
