# The compiled engine's declarations for actions.py (Cython reads this; plain Python never does):
# the factories the legal-action generators call for every die and tile, as cpdef with C-long
# arguments, so that rules.py (which cimports them) calls C and indexes the tables in C.

cpdef object make_move(long die, long face, long frm, long to)
cpdef object make_act(
    long die, long face, long at, str ability, long target=*, long tface=*, long tat=*
)
cpdef object make_hold(long die, long face, long at)
cpdef object make_deploy(long die, long face, long factory, long to)
cpdef object _by_face_and_factory(list table, object kind, long face, long factory)
cpdef object make_build(long face, long factory)
cpdef object make_research(long face, long factory)
cpdef object make_deactivate(long die, long face, long loc)
