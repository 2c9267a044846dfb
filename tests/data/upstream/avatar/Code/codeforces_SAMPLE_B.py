s = input ( )
while s.endswith ( "!" ) :
    s = s [ : - 1 ]
print ( s.upper ( ) )
