"""One folder per exercise: its exercise.toml (task, hints, wrong variants), checks, stub and solution.

Underscored because none of it is API: the registry, `scratchgrad.exercises.registry`, lists
the exercises in the order of the story; pages include the files as snippets.
"""
